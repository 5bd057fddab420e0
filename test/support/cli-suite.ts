// What the CLI end-to-end suites (test/e2e/cli*.test.ts) set up around the real CLI: the fake Hiro API, a
// temp directory holding the watch config, the variables that point the CLI at that API, and the CLI run
// with them. `cliSuite` registers the hooks of a describe block (or of the file, called outside one): all up
// before its tests, the server closed and the directory removed after them. `cliTempDir` is the directory
// alone, for suites that start their own APIs or need none.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runCli, type CliRun, type CliRunOptions } from '../e2e/run-cli';
import { loadCliInProcess } from './cli-in-process';
import { createFakeHiro, type FakeChain, type FakeHiro, type RunningFakeHiro } from './fake-hiro';

/** Where the CLI reads: the fake API, with a request budget no test reaches. */
export function apiEnvironment(url: string): Record<string, string> {
  return { STACKS_API_URL: url, STACKS_API_RPM: '100000' };
}

/** A local port nothing listens on when asked: connections to it are refused until someone takes it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface CliTempDir {
  /** The directory, made before the tests (`stacks-watch-<name>-…` in the system's temp directory). */
  readonly dir: string;
  /** A file in it. */
  path(name: string): string;
  /** Writes `content` to `name` in the directory, as JSON (a string as it is); returns its path. */
  write(name: string, content: unknown): Promise<string>;
  /** A sub-directory of its own (`<name>-…`) with `config` written to its watch.json, and its state file's path. */
  files(name: string, config: unknown): Promise<{ configPath: string; statePath: string }>;
}

const asJson = (config: unknown) => (typeof config === 'string' ? config : JSON.stringify(config));

/** A temp directory made before the tests of the block (or file) and removed after them; the CLI is loaded in the worker by then. */
export function cliTempDir(name: string): CliTempDir {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `stacks-watch-${name}-`));
    await loadCliInProcess();
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const made = () => {
    if (dir === undefined) throw new Error('cliTempDir: the directory is not made yet (used outside the tests?)');
    return dir;
  };
  const path = (file: string) => join(made(), file);
  const write = async (file: string, content: unknown) => {
    await writeFile(path(file), asJson(content));
    return path(file);
  };
  return {
    get dir() {
      return made();
    },
    path,
    write,
    async files(sub, config) {
      const own = await mkdtemp(join(made(), `${sub}-`));
      const configPath = join(own, 'watch.json');
      await writeFile(configPath, asJson(config));
      return { configPath, statePath: join(own, 'state.json') };
    },
  };
}

export interface CliSuiteOptions {
  /** Names the temp directory: `stacks-watch-<name>-…`. */
  name: string;
  /** The fake API; createFakeHiro() unless given. */
  fake?: FakeHiro;
  /** The watch config, written as JSON to watch.json before the tests. Left out, none is written. */
  config?: unknown;
  /** Run once the API is up and the config written: the chain before the tests, other stand-ins. */
  setup?: (suite: CliSuite) => unknown;
  /** Bound of the setup hook; the configured hookTimeout unless given. */
  setupTimeoutMs?: number;
}

export interface CliSuite extends CliTempDir {
  readonly fake: FakeHiro;
  readonly chain: FakeChain;
  readonly server: RunningFakeHiro;
  /** The variables of every run: {@link apiEnvironment} of the server. */
  readonly env: Record<string, string>;
  /** watch.json in the directory. */
  readonly configPath: string;
  /** One cycle printing JSON: `--once --json --config watch.json --state <state>` (state.json unless named). */
  args(state?: string): string[];
  /** Runs the CLI with these arguments and the suite's variables, `options.env` added over them. */
  run(args: string[], options?: CliRunOptions & { env?: Record<string, string> }): Promise<CliRun>;
}

/**
 * Registers the hooks of a describe block that runs the real CLI against the fake API: before its tests the
 * API is started, the directory made, the config written and `setup` run; after them the API is closed and
 * the directory removed.
 */
export function cliSuite(options: CliSuiteOptions): CliSuite {
  const fake = options.fake ?? createFakeHiro();
  let server: RunningFakeHiro | undefined;
  const temp = cliTempDir(options.name);
  const up = () => {
    if (server === undefined) throw new Error('cliSuite: the fake API is not up (used outside the tests?)');
    return server;
  };
  const suite: CliSuite = {
    get dir() {
      return temp.dir;
    },
    path: temp.path,
    write: temp.write,
    files: temp.files,
    fake,
    chain: fake.chain,
    get server() {
      return up();
    },
    get env() {
      return apiEnvironment(up().url);
    },
    get configPath() {
      return temp.path('watch.json');
    },
    args: (state = 'state.json') => ['--once', '--json', '--config', temp.path('watch.json'), '--state', temp.path(state)],
    run: (args, { env, ...runOptions } = {}) => runCli(args, { ...apiEnvironment(up().url), ...env }, runOptions),
  };
  beforeAll(async () => {
    server = await fake.start();
    if (options.config !== undefined) await temp.write('watch.json', options.config);
    await options.setup?.(suite);
  }, options.setupTimeoutMs);
  afterAll(async () => {
    await server?.close();
  });
  return suite;
}
