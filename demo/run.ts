// `npm run demo`: stacks-watch against the project's fake Hiro API on a local port, with a scripted chain
// that grows and reorgs (demo/script.ts) and demo/watch.json. No network, no AWS, a fresh state each time.
// The watcher is the real CLI, started as `npm start` would; options after `--` go to it (e.g. --json).
// It stops by itself once the script has played (or after DEMO_SECONDS), or on Ctrl-C.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFakeHiro, ROUTES, type FakeHiro } from '../test/support/fake-hiro';
import { DEMO_STEPS, prepareChain } from './script';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Fixed, so the API can be tried by hand while the demo runs: curl http://127.0.0.1:3999/extended */
const PORT = Number(process.env.DEMO_PORT ?? 3999);
const MAX_SECONDS = Number(process.env.DEMO_SECONDS ?? 90);
/** How long one step may wait for the watcher to take it in before the demo gives up (the first, its start). */
const STEP_WAIT_MS = 20_000;
const START_WAIT_MS = 60_000;

/**
 * The watcher's tip reads so far, one a cycle whichever way the fetch plan chooses: a runner that may read per
 * subject (FETCH_WAY auto, the default) takes its tip from the newest page of the v3 block list, which its header
 * chain then reuses (only older pages carry a cursor); FETCH_WAY=block-scan, or an API without that list, asks the
 * tip route.
 */
function tipReads(fake: FakeHiro): number {
  return fake.count(ROUTES.tip) + fake.requestsTo(ROUTES.v3Blocks).filter((request) => !request.query.has('cursor')).length;
}

const say = (text: string) => process.stderr.write(`demo ▸ ${text}\n`);

async function main(): Promise<number> {
  // The demo shows alerts; Hiro's deprecation warnings (once per process, see docs/api-routes.md) would only distract.
  const fake = createFakeHiro({ deprecationWarnings: false });
  prepareChain(fake.chain);
  const server = await fake.start({ port: PORT });
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-demo-'));
  say(`fake Hiro API on ${server.url}; state in ${dir}; Ctrl-C stops`);

  // The default fetch plan (auto), as `npm start` runs: the steps below pace themselves on the tip reads.
  const env: NodeJS.ProcessEnv = { ...process.env, STACKS_API_URL: server.url, STACKS_API_RPM: '100000' };
  delete env.STACKS_API_KEY;
  const watcher = spawn(
    process.execPath,
    ['--import', 'tsx', 'lambda/cli.ts', '--config', 'demo/watch.json', '--state', join(dir, 'state.json'), '--interval', '1', ...process.argv.slice(2)],
    { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const exited = new Promise<number>((resolve) => watcher.on('close', (code) => resolve(code ?? 1)));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    watcher.kill('SIGINT');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const deadline = setTimeout(() => {
    say(`stopping after ${MAX_SECONDS} s (DEMO_SECONDS)`);
    stop();
  }, MAX_SECONDS * 1000);

  try {
    // Two tip reads after a change: the watcher finished the cycle that saw it (one tip read a cycle).
    const cycleAfterChange = async (waitMs = STEP_WAIT_MS) => {
      const seen = tipReads(fake);
      const until = Date.now() + waitMs;
      while (!stopping && tipReads(fake) < seen + 2) {
        if (Date.now() > until || watcher.exitCode !== null) throw new Error('the watcher stopped answering');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await cycleAfterChange(START_WAIT_MS);
    for (const step of DEMO_STEPS) {
      if (stopping) break;
      say(step.says);
      step.act(fake.chain);
      await cycleAfterChange();
    }
    if (!stopping) say('the script has played; stopping the watcher');
  } catch (error) {
    say((error as Error).message);
  } finally {
    stop();
  }
  // The watcher's exit, its SIGINT (130) as a clean stop; the API and the directory go once it has exited.
  const code = await exited;
  clearTimeout(deadline);
  await server.close();
  await rm(dir, { recursive: true, force: true });
  return code === 0 || code === 130 ? 0 : code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
