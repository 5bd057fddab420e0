// Runs the real CLI (`lambda/cli.ts`), bounded in time: in the test's worker through the entry the bin calls
// (test/support/cli-in-process.ts), or, when the test pins what only a process shows (asked with `process`,
// `viaNpm`, or a handle on the child), as a child process as `npm start` would: the run's bundle of it when the
// global setup built one (test/support/cli-bundle.ts), else the sources under tsx.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCliBundle } from '../support/cli-bundle';
import { runCliInProcess } from '../support/cli-in-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** 20 s unless given. */
  timeoutMs?: number;
  onStderr?: (chunk: string, child: ReturnType<typeof spawn>) => void;
  /** Called once the child is started: to signal it on a condition other than its output. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Through `npm start --silent --`, exactly as the README shows, rather than node directly. */
  viaNpm?: boolean;
  /** As a child process even without a handle on it: for what only a process shows (its exit, its pipes). */
  process?: boolean;
}

export function runCli(args: string[], env: Record<string, string>, options: CliRunOptions = {}): Promise<CliRun> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  if (options.process || options.viaNpm || options.onSpawn || options.onStderr) return runCliProcess(args, env, options);
  const processEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env };
  return runCliInProcess(args, processEnv, timeoutMs).then((run) => ({ ...run, signal: null }));
}

/** The CLI as a child process. */
function runCliProcess(args: string[], env: Record<string, string>, options: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const bundle = runCliBundle();
    const [command, commandArgs] = options.viaNpm
      ? ['npm', ['start', '--silent', '--', ...args]]
      : [process.execPath, bundle ? [bundle, ...args] : ['--import', 'tsx', 'lambda/cli.ts', ...args]];
    const child = spawn(command, commandArgs, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(d.toString(), child);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within ${options.timeoutMs ?? 20_000} ms\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
