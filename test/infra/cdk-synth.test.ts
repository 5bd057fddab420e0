// `cdk synth` as an operator runs it, from the repository root, through cdk.json: the app, the cdk-nag
// checks and real esbuild bundling, with no AWS credentials and no network. Not CDK's built-in CloudFormation
// check (CDK_VALIDATION=false): unless @aws-cdk/core:validateAgainstDefaultRules is set, which cdk.json does
// not, its findings are downgraded to warnings that fail no synth, and no assertion here read them; it was
// 10 of this suite's 25 s of CPU, a WebAssembly rules engine started in the app's process.
// The good synth runs the cdk CLI with cdk.json's app command as it is (`node --import tsx infra/app.ts`). The refusals
// start the app as the CLI starts it (the context in CDK_CONTEXT_JSON: cdk.json's and the command line's, the
// output folder in CDK_OUTDIR), sparing the CLI's own start and tsx: what they pin is the app's refusal
// (its message, its exit code, no stack trace), which the CLI passes on as it is. They run the app bundled
// once with esbuild, as the CLI suites run the CLI (test/support/cli-bundle.ts): node loads a bundle in a
// quarter of the CPU tsx takes to compile the sources in each of the three processes. No run fetches CDK's
// notices. The four runs start together when the file does, each test awaiting its own: most of a run is a
// process starting or waiting on esbuild, so side by side they take the time of the longest rather than of
// all four.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
// Paths of its own rather than from ./support/synth, which loads aws-cdk-lib: this suite runs in the e2e
// project (vitest.config.ts), its work in child processes while the other suites there wait on theirs.
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const CDK = join(REPO_ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk');
// About 40 s on 2 idle cores; started first in the run (vitest.config.ts), beside the type-check and the heaviest
// suites, it took over 120 s on a shared machine under load.
const SYNTH_TIMEOUT_MS = 240_000;

/** The environment without any AWS setting, and with every network request sent to a closed port. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AWS_|CDK_)/.test(name)));
  const nowhere = 'http://127.0.0.1:9';
  return {
    ...env,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    HTTP_PROXY: nowhere,
    HTTPS_PROXY: nowhere,
    http_proxy: nowhere,
    https_proxy: nowhere,
    NO_PROXY: '',
  };
}

async function cdkSynth(outdir: string, context: string[]) {
  const args = [CDK, 'synth', '--quiet', '--no-notices', '--output', outdir, ...context.flatMap((c) => ['--context', c])];
  const env = { ...offlineEnvironment(), CDK_VALIDATION: 'false' };
  return settled(run(process.execPath, args, { cwd: REPO_ROOT, env, timeout: SYNTH_TIMEOUT_MS }));
}

/**
 * The app (infra/app.ts) bundled into `dir` as one CommonJS file, its packages left to node_modules (found
 * through NODE_PATH) and `import.meta.url` the source's own, so that paths it derives from it (the project
 * root) are the ones tsx gives it. CommonJS, because node then requires aws-cdk-lib without first scanning
 * its exports for an ES module import.
 */
async function bundleApp(dir: string): Promise<string> {
  const outfile = join(dir, 'app.cjs');
  await build({
    entryPoints: [join(REPO_ROOT, 'infra', 'app.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(REPO_ROOT, 'infra', 'app.ts')).href) },
  });
  return outfile;
}

/** The bundled app started as the cdk CLI starts the app: cdk.json's context under the command line's, in CDK_CONTEXT_JSON. */
async function appSynth(app: Promise<string>, outdir: string, context: string[]) {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const given = Object.fromEntries(context.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  const env = {
    ...offlineEnvironment(),
    CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, ...given }),
    CDK_OUTDIR: outdir,
    NODE_PATH: join(REPO_ROOT, 'node_modules'),
  };
  return settled(app.then((bundle) => run(process.execPath, [bundle], { cwd: REPO_ROOT, env, timeout: SYNTH_TIMEOUT_MS })));
}

async function settled(process: Promise<{ stdout: string; stderr: string }>) {
  try {
    const { stdout, stderr } = await process;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}

type SynthResult = Awaited<ReturnType<typeof cdkSynth>>;

const dir = mkdtempSync(join(tmpdir(), 'stacks-watch-synth-'));
const outdir = join(dir, 'good');
let runs: { good: Promise<SynthResult>; bad: Promise<SynthResult>; fewer: Promise<SynthResult>; context: Promise<SynthResult> };

beforeAll(() => {
  const app = bundleApp(join(dir, 'app'));
  runs = {
    good: cdkSynth(outdir, [`watchConfig=${fixture('watch.json')}`]),
    bad: appSynth(app, join(dir, 'bad'), [`watchConfig=${fixture('watch-invalid.json')}`]),
    fewer: appSynth(app, join(dir, 'fewer'), [`settingsFile=${fixture('deploy-subscribers.json')}`, 'alertEmails=team@example.com']),
    context: appSynth(app, join(dir, 'context'), ['alertPhoneNumbers=555-0123', 'scheduleMinutes=0', 'alertEmail=you@example.com']),
  };
});

afterAll(async () => {
  // Every run has ended (no run rejects: each settles to its exit code and output) before its folders go.
  await Promise.all(Object.values(runs ?? {}));
  rmSync(dir, { recursive: true, force: true });
}, SYNTH_TIMEOUT_MS + 10_000);

describe('npx cdk synth', () => {
  describe('with a good watch config', () => {
    let result: SynthResult;

    beforeAll(async () => {
      result = await runs.good;
    }, SYNTH_TIMEOUT_MS + 10_000);

    const template = () => JSON.parse(readFileSync(join(outdir, 'StacksWatch.template.json'), 'utf8'));
    const functionAsset = () => {
      const resources = Object.entries(template().Resources as Record<string, any>);
      const [, fn] = resources.find(([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('WatcherFunction'))!;
      return join(outdir, fn.Metadata['aws:asset:path'] as string);
    };
    /** The asset the seed custom resource copies into the config bucket. */
    const firstVersionAsset = () => {
      const assets = JSON.parse(readFileSync(join(outdir, 'StacksWatch.assets.json'), 'utf8')) as {
        files: Record<string, { source: { path: string; packaging: string } }>;
      };
      const seed = Object.values(template().Resources as Record<string, any>).find((r) => r.Type === 'Custom::WatchConfigSeed');
      const key = seed.Properties.SourceKey as string;
      const file = Object.entries(assets.files).find(([hash]) => key.startsWith(hash))!;
      return join(outdir, file[1].source.path);
    };

    it('succeeds offline, with no finding from cdk-nag', () => {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/AwsSolutions-/);
    });

    it('bundles the handler as one ES module with its source map, and no watch config: the function reads the store', () => {
      expect(readdirSync(functionAsset()).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    });

    it('ships the watch config that was validated, unchanged, as the asset the first version is put from', () => {
      expect(readFileSync(firstVersionAsset(), 'utf8')).toBe(readFileSync(fixture('watch.json'), 'utf8'));
    });

    it("bundles the AWS SDK rather than relying on the runtime's copy", () => {
      const code = readFileSync(join(functionAsset(), 'index.mjs'), 'utf8');
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(code).toContain('PublishBatch');
    });
  });

  it(
    "fails on a bad watch config with the validator's message and no stack trace",
    async () => {
      const result = await runs.bad;
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('2 problems in the watch config');
      expect(result.stderr).toMatch(/\$\.confirmations: must be a whole number from 0 to 100/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'refuses a deploy that would unsubscribe someone the settings file lists, unless told',
    async () => {
      const result = await runs.fewer;
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('this deploy would unsubscribe 1 of the 5 subscribers');
      expect(result.stderr).toContain('cto@example.com (email)');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'fails on bad context with every problem named, a misspelt key included',
    async () => {
      const result = await runs.context;
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('3 problems in the deploy settings (deploy.json, or -c on the command line)');
      expect(result.stderr).toContain('alertEmail: is not a setting; did you mean alertEmails?');
      expect(result.stderr).toContain('alertPhoneNumbers[0]: "555-0123" is not an E.164 phone number');
      expect(result.stderr).not.toContain('(found: undefined)');
    },
    SYNTH_TIMEOUT_MS,
  );
});
