// Synthesizes the stack the way `cdk synth` does (cdk.json's feature flags, the app's context), with
// bundling skipped unless a test asks for it. A synth costs about a second of CPU and most suites read the
// same few shapes, so `synthStack` synthesizes each shape once per worker (the infra suites share a worker:
// vitest.config.ts) and hands every suite the same result; `freshSynth` builds a new one.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, inject } from 'vitest';
import { App, type AppProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacksWatch } from '../../../infra/build-stacks-watch';
import type { StacksWatchStack } from '../../../infra/stacks-watch-stack';
import type {} from '../../support/cdk-out-setup';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** cdk.json's context: the feature flags every real synth runs with. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(`${REPO_ROOT}cdk.json`, 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

// Each synth (Template.fromStack, Annotations, cdk-nag's aspects) writes a cloud assembly to the app's outdir,
// by default a fresh `cdk.out*` folder in the OS temp directory that nothing removes. Apps made here write to
// a folder of their own: under the run's folder when the global setup made one (cdk-out-setup.ts, removed
// after the run: a shared synth outlives the file that made it), else removed when the test file is done.
const runFolder = inject('cdkOutRoot') || undefined;
const outdirs: string[] = [];
if (runFolder === undefined) {
  afterAll(() => {
    for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

/** A CDK app whose cloud assembly is removed after the run (or the test file). */
export function testApp(props: Omit<AppProps, 'outdir'> = {}): App {
  const outdir = mkdtempSync(join(runFolder ?? tmpdir(), 'stacks-watch-cdk-'));
  if (runFolder === undefined) outdirs.push(outdir);
  return new App({ ...props, outdir });
}

export interface Synthesized {
  app: App;
  stack: StacksWatchStack;
  template: Template;
}

const synthesized = new Map<string, Synthesized>();

/** What makes two synths the same shape: the context, and the text of the files it names (a test may rewrite one). */
function shapeOf(context: Record<string, unknown>): string {
  const files = ['watchConfig', 'settingsFile'].map((name) => {
    const path = context[name];
    return typeof path === 'string' && existsSync(path) ? readFileSync(path, 'utf8') : null;
  });
  return JSON.stringify([context, files]);
}

/**
 * The stack synthesized with this context, shared by every test that asks for the same shape: read it, never
 * add to it (an aspect, a construct). A test that compares two synths of one shape, or changes the tree,
 * takes a {@link freshSynth}. A synth that throws is not kept: each caller sees the error.
 */
export function synthStack(context: Record<string, unknown> = {}): Synthesized {
  const shape = shapeOf(context);
  let shared = synthesized.get(shape);
  if (shared === undefined) {
    shared = freshSynth(context);
    synthesized.set(shape, shared);
  }
  return shared;
}

/** A stack synthesized anew, its own to change. */
export function freshSynth(context: Record<string, unknown> = {}): Synthesized {
  const app = testApp({
    // The CloudFormation schema check costs seconds per synth; the `cdk synth` test runs it once.
    builtinCloudFormationValidation: false,
    context: {
      ...cdkJsonContext(),
      'aws:cdk:bundling-stacks': [],
      watchConfig: fixture('watch.json'),
      // The code's defaults (the schedule at 256 MB), not the shipped deploy.json's choice: a test names that file to read it.
      settingsFile: fixture('deploy-without-latency.json'),
      ...context,
    },
  });
  const stack = buildStacksWatch(app, REPO_ROOT);
  return { app, stack, template: Template.fromStack(stack) };
}

// Template JSON is untyped by nature; tests index into it freely.
type TemplateResource = { Properties: Record<string, any>; Metadata?: Record<string, unknown> };

/** The watch config store's resources (its bucket, and the seed function with its own role and logs): logical ids `WatchConfig…`. */
export const isWatchConfigStoreId = (id: string) => id.startsWith('WatchConfig');

/** The one resource of `type` outside the watch config store, with its logical id. */
export function onlyResource(template: Template, type: string): { id: string; resource: TemplateResource } {
  const found = Object.entries(template.findResources(type)).filter(([id]) => !isWatchConfigStoreId(id));
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  const [id, resource] = found[0]!;
  return { id, resource: resource as TemplateResource };
}
