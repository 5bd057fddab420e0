// `npm run demo`, as the README shows it: the fake API, the scripted chain and the real CLI, no network.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_STEPS } from '../../demo/script';
import { freePort } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function runDemo(
  args: string[],
  options: { timeoutMs: number; env?: Record<string, string>; onStdout?: (text: string, child: ReturnType<typeof spawn>) => void },
) {
  // The demo's port is fixed for people; a test takes a free one so that parallel runs do not collide.
  const port = await freePort();
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'demo', '--', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DEMO_PORT: String(port), DEMO_SECONDS: '150', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that Ctrl-C can be sent to all of it, as a terminal does.
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      options.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`the demo did not stop within ${options.timeoutMs} ms\nstderr:\n${stderr}`));
    }, options.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

// The two runs side by side: each is mostly the demo pacing its script, waiting on the watcher's next cycle.
describe.concurrent('npm run demo', () => {
  it('prints an alert of every kind, as JSON with --json, and stops by itself', async () => {
    const run = await runDemo(['--json'], { timeoutMs: 170_000 });
    expect(run.code).toBe(0);
    const types = new Set(jsonLines(run.stdout).map((a) => a.type));
    expect([...types].sort()).toEqual([
      'balance_threshold',
      'contract_call',
      'contract_log',
      'contract_status',
      'cooldown_summary',
      'deep_reorg',
      'ft_transfer',
      'nft_transfer',
      'pending_call',
      'pending_dropped',
      'pending_transfer',
      'retraction',
      'stx_transfer',
      'token_transfer',
      'window_threshold',
    ]);
    for (const step of DEMO_STEPS) expect(run.stderr).toContain(`demo ▸ ${step.says}`);
    for (const kind of DEMO_STEPS.flatMap((s) => s.shows)) expect(types).toContain(kind);
    expect(run.stderr).toContain('demo ▸ the script has played; stopping the watcher');
    // Its cycles wait on one stop signal for Ctrl-C: they must not pile abort listeners on it.
    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
  }, 180_000);

  it('stops when asked (Ctrl-C), after printing alerts for people, its watcher reading as the fetch plan says', async () => {
    let asked = false;
    const run = await runDemo([], {
      timeoutMs: 60_000,
      // The watcher's `cycle done` lines, which carry the fetch plan and the way it was asked for.
      env: { LOG_LEVEL: 'debug' },
      onStdout: (text, child) => {
        if (!asked && /STX to /.test(text)) {
          asked = true;
          process.kill(-child.pid!, 'SIGINT');
        }
      },
    });
    expect(asked).toBe(true);
    // npm itself ends on the signal it was sent; the demo and its watcher stop cleanly inside it.
    expect(run.code === 0 || run.signal === 'SIGINT').toBe(true);
    expect(run.stderr).toContain('stopping after the current block');
    expect(run.stderr).not.toMatch(/demo failed|stacks-watch failed/);
    expect(run.stdout).toMatch(/contract .*vault/);
    expect(run.stderr).not.toContain('the script has played');
    // The default (auto), as `npm start` runs, not the block scan named: a run that scanned says the plan it was asked to follow.
    expect(run.stderr).toMatch(/ cycle done \{.*"fetchPlan":\{"way":"[a-z-]+","asked":"auto"/);
  }, 90_000);
});
