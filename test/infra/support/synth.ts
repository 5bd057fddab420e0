// Synthesizes the stack the way `cdk synth` does (cdk.json's feature flags, the app's context), with
// bundling skipped unless a test asks for it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { App, type AppProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacksWatch } from '../../../infra/build-stacks-watch';
import type { StacksWatchStack } from '../../../infra/stacks-watch-stack';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** cdk.json's context: the feature flags every real synth runs with. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(`${REPO_ROOT}cdk.json`, 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

// Each synth (Template.fromStack, Annotations, cdk-nag's aspects) writes a cloud assembly to the app's outdir,
// by default a fresh `cdk.out*` folder in the OS temp directory that nothing removes. Apps made here write to
// a folder of their own, removed when the test file is done.
const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A CDK app whose cloud assembly is removed after the test file. */
export function testApp(props: Omit<AppProps, 'outdir'> = {}): App {
  const outdir = mkdtempSync(join(tmpdir(), 'stacks-watch-cdk-'));
  outdirs.push(outdir);
  return new App({ ...props, outdir });
}

export interface Synthesized {
  app: App;
  stack: StacksWatchStack;
  template: Template;
}

export function synthStack(context: Record<string, unknown> = {}): Synthesized {
  const app = testApp({
    // The CloudFormation schema check costs seconds per synth; the `cdk synth` test runs it once.
    builtinCloudFormationValidation: false,
    context: {
      ...cdkJsonContext(),
      'aws:cdk:bundling-stacks': [],
      watchConfig: fixture('watch.json'),
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
