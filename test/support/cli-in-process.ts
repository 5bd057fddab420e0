// The real CLI run inside the test's own worker, through the entry the bin calls (`cliMain`, which
// lambda/cli.ts starts): the same code on the same arguments, environment and files, without a node process
// and a fresh load of the sources per run, which cost most of the CLI suites' time. For the length of a run the
// worker's process.argv, process.env, process.stdout and process.stderr are the run's own (the CLI reads them
// when called, never at import) and are put back after it, with any signal handler the run added. What only a
// process shows stays with a child process (test/e2e/run-cli.ts): Ctrl-C and kills, `npm start`, an exit that
// waits for a handle left open.
import { Writable } from 'node:stream';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as a pipe to the parent would. */
class Collected extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}

/**
 * In a worker thread, Node answers the parent's "the pipe wants more data" by calling
 * `process.stdout[kStdioWantsMoreDataCallback]()` (and stderr's): a stand-in must pass that call on to the real
 * stream, or a drain that arrives during a run throws in the worker. The symbol is Node's own, found by name.
 */
function passDrainsOn(standIn: Writable, real: unknown): void {
  for (let proto = real; proto; proto = Object.getPrototypeOf(proto)) {
    const symbol = Object.getOwnPropertySymbols(proto).find((s) => s.description === 'kStdioWantsMoreDataCallback');
    if (symbol === undefined) continue;
    const callback = (real as Record<symbol, unknown>)[symbol];
    if (typeof callback === 'function') Object.defineProperty(standIn, symbol, { value: () => callback.call(real) });
    return;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** The run under way in this worker, if any: the next waits for it. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI once with `args` and only `env` for an environment, as `node lambda/cli.ts ...args` would;
 * resolves with its exit code and output. A run owns the process globals, so runs asked at once (concurrent
 * tests) take turns. A run past `timeoutMs` rejects (the test fails) and the globals are put back.
 */
export function runCliInProcess(args: string[], env: Record<string, string>, timeoutMs: number): Promise<InProcessRun> {
  const run = previous.then(() => runAlone(args, env, timeoutMs));
  previous = run.catch(() => undefined);
  return run;
}

/**
 * Loads the CLI's sources into the worker (once per worker; later calls cost nothing). A suite's beforeAll
 * calls it so that the first load, a few seconds on a busy machine, counts against a hook's bound rather
 * than against the first test's.
 */
export function loadCliInProcess(): Promise<{ cliMain: () => Promise<number> }> {
  return import('../../lambda/local/cli-main');
}

async function runAlone(args: string[], env: Record<string, string>, timeoutMs: number): Promise<InProcessRun> {
  const { cliMain } = await loadCliInProcess();
  const saved = {
    argv: process.argv,
    env: process.env,
    stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!,
    stderr: Object.getOwnPropertyDescriptor(process, 'stderr')!,
  };
  const listeners = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const stdout = new Collected();
  const stderr = new Collected();
  passDrainsOn(stdout, process.stdout);
  passDrainsOn(stderr, process.stderr);
  process.argv = [process.execPath, 'lambda/cli.ts', ...args];
  process.env = { ...env };
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => stdout });
  Object.defineProperty(process, 'stderr', { configurable: true, enumerable: true, get: () => stderr });
  let timer: NodeJS.Timeout | undefined;
  try {
    const code = await Promise.race([
      cliMain(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the CLI did not finish within ${timeoutMs} ms\nstderr:\n${stderr.text}`)), timeoutMs);
      }),
    ]);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(timer);
    process.argv = saved.argv;
    process.env = saved.env;
    Object.defineProperty(process, 'stdout', saved.stdout);
    Object.defineProperty(process, 'stderr', saved.stderr);
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (!listeners.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
}
