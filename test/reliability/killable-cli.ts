// The real CLI (`lambda/cli.ts`) as a child process that a test can SIGKILL at a chosen moment: when the
// fake API sees its Nth request, or when a line it writes matches. The runs after the kill, which nothing
// kills, may run in the test's worker instead (`runToEnd`). Every run is bounded in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleCliInto, runCliBundle } from '../support/cli-bundle';
import { runCliInProcess } from '../support/cli-in-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUN_TIMEOUT_MS = 15_000;

/**
 * The CLI as a bundle, as the deploy bundles the handler: the run's (test/support/cli-bundle.ts), or one built
 * into `dir` when the file runs without the global setup. These suites start the CLI some twenty times: node
 * starts the bundle in a third of the time tsx takes to compile the sources on every start.
 */
export async function bundleCli(dir: string): Promise<string> {
  return runCliBundle() ?? (await bundleCliInto(dir));
}

export interface CliRunResult {
  code: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

export interface KillTrigger {
  /** Kill when a complete line on stdout (an alert) or stderr (a log line) matches. */
  line?: { stream: 'stdout' | 'stderr'; match: RegExp; nth?: number };
}

export class KillableCli {
  private child: ChildProcess | undefined;
  killed = false;

  /** `cli`: the bundle from bundleCli. */
  constructor(private readonly cli: string) {}

  /** Kills the running child at once (a power cut, not a Ctrl-C). */
  kill(): void {
    if (!this.child || this.child.exitCode !== null) return;
    this.killed = true;
    this.child.kill('SIGKILL');
  }

  /**
   * A run to its end that nothing kills (the start after a kill), in the test's worker through the entry the
   * bin calls (test/support/cli-in-process.ts): it reads the state the killed process left as a new process
   * would, without the cost of one.
   */
  async runToEnd(args: string[], env: Record<string, string>): Promise<CliRunResult> {
    const run = await runCliInProcess(args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, RUN_TIMEOUT_MS);
    return { ...run, killed: false };
  }

  run(args: string[], env: Record<string, string>, trigger: KillTrigger = {}): Promise<CliRunResult> {
    this.killed = false;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [this.cli, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      const out = { stdout: '', stderr: '' };
      const partial = { stdout: '', stderr: '' };
      let seen = 0;
      const watch = (stream: 'stdout' | 'stderr') => (data: Buffer) => {
        out[stream] += data.toString();
        const lines = (partial[stream] + data.toString()).split('\n');
        partial[stream] = lines.pop()!;
        const line = trigger.line;
        if (!line || line.stream !== stream || this.killed) return;
        seen += lines.filter((l) => line.match.test(l)).length;
        if (seen >= (line.nth ?? 1)) this.kill();
      };
      child.stdout!.on('data', watch('stdout'));
      child.stderr!.on('data', watch('stderr'));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the CLI did not finish within ${RUN_TIMEOUT_MS} ms\nstderr:\n${out.stderr}`));
      }, RUN_TIMEOUT_MS);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, killed: this.killed, ...out });
      });
    });
  }
}

/** The alerts of complete stdout lines: a line cut by the kill was never delivered. */
export function printedKeys(stdout: string): string[] {
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { key: string }).key);
}
