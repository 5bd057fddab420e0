// The stack's synthesized CloudFormation template as the bill reads it: the template itself, and which of its
// resources is the watcher, a chat notifier or the watch config store, and how often its schedule ticks.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStacksWatch } from '../infra/build-stacks-watch';
import { DEFAULT_LOOP_DELAY_SECONDS } from '../infra/settings/latency-settings';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The watch config the stack bundles; what it watches changes the measured cycles, not the template's cost. */
const WATCH_CONFIG = `${REPO_ROOT}test/infra/fixtures/watch.json`;
/**
 * The settings a template starts from: none of latency, memory or delay named, so the code's defaults (the
 * schedule at 256 MB) rather than what the shipped deploy.json chooses. A bill of deploy.json names it:
 * `{ settingsFile: SHIPPED_SETTINGS }`.
 */
const BASE_SETTINGS = `${REPO_ROOT}test/infra/fixtures/deploy-without-latency.json`;
/** The settings file the repository ships, which `cdk deploy` reads when told no other. */
export const SHIPPED_SETTINGS = `${REPO_ROOT}deploy.json`;

/** The loop's delay as deploy.json ships it: the latency table and table 5e compare the loop at it. */
export function shippedLoopDelaySeconds(): number {
  const shipped = JSON.parse(readFileSync(SHIPPED_SETTINGS, 'utf8')) as { loopDelaySeconds?: number };
  return shipped.loopDelaySeconds ?? DEFAULT_LOOP_DELAY_SECONDS;
}

export type Resource = { Type: string; Properties?: Record<string, any> };
export type TemplateJson = { Resources: Record<string, Resource> };

/** The stack's template as `cdk synth` would make it for `context` over the base settings (bundling skipped: it does not change the bill). */
export function synthTemplate(context: Record<string, unknown> = {}): TemplateJson {
  // Synthesized into a folder of its own and removed: the default outdir is a new temp folder nothing removes.
  const outdir = mkdtempSync(join(tmpdir(), 'stacks-watch-bill-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], watchConfig: WATCH_CONFIG, settingsFile: BASE_SETTINGS, ...context } });
    return Template.fromStack(buildStacksWatch(app, REPO_ROOT)).toJSON() as TemplateJson;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A chat notifier (infra/constructs/chat-notifiers.ts) rather than the watcher: its environment names its channel. */
export const isNotifier = (resource: Resource) => (resource.Properties?.Environment?.Variables ?? {}).CHAT_CHANNEL !== undefined;
/** The watcher: the function told its state table. */
const isWatcher = (resource: Resource) => (resource.Properties?.Environment?.Variables ?? {}).TABLE_NAME !== undefined;
/** The watch config store's resources (infra/constructs/watch-config-store.ts): its seed runs once a deploy. */
export const isConfigStore = (id: string) => id.startsWith('WatchConfig');

/**
 * The config the bill prices the store for, in bytes (table 9 prices a 100,000-address one). Storage is
 * priced for the newest NONCURRENT_KEPT noncurrent versions and the current one: what the lifecycle always keeps.
 */
export const configBytesOf = (path = WATCH_CONFIG) => statSync(path).size;

/** The functions an SQS event source invokes, by logical id: the loop's turns (infra/constructs/watcher-function.ts). */
export function eventSourceFunctions(template: TemplateJson): Set<string> {
  const ids = Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')
    .map((r) => r.Properties?.FunctionName?.Ref as string | undefined);
  return new Set(ids.filter((id): id is string => id !== undefined));
}

/** The watcher function: the one Lambda function told its state table that the schedule invokes (not the loop's turns). */
export function watcherFunction(template: TemplateJson): [string, Resource] {
  const turns = eventSourceFunctions(template);
  const found = Object.entries(template.Resources).filter(
    ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && isWatcher(resource) && !turns.has(id),
  );
  if (found.length !== 1) throw new Error(`the bill expects one watcher function in the template, found ${found.length}`);
  return found[0]!;
}

/** The one resource of `type` in the template. */
export function only(template: TemplateJson, type: string): [string, Resource] {
  const found = Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
  if (found.length !== 1) throw new Error(`the bill expects one ${type} in the template, found ${found.length}`);
  return found[0]!;
}

/** Minutes between two runs of a `rate(...)` schedule expression. */
export function minutesOf(expression: unknown): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(String(expression));
  if (!match) throw new Error(`the bill cannot read the schedule expression ${JSON.stringify(expression)}`);
  return Number(match[1]) * (match[2]!.startsWith('hour') ? 60 : 1);
}

/** The queue the SQS event source reads (the loop's turns), by logical id. */
export function eventSourceQueues(template: TemplateJson): Set<string> {
  const ids = Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')
    .map((r) => r.Properties?.EventSourceArn?.['Fn::GetAtt']?.[0] as string | undefined);
  return new Set(ids.filter((id): id is string => id !== undefined));
}
