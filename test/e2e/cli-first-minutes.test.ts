// A newcomer's first minutes with the CLI, end to end against the fake Hiro API: an API out of reach, the
// API of another network, --check, --status, quiet cycles, outages after a good start, named mistakes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { coinbase, createFakeHiro, FakeChain, fakeAddress, fakeContractId, ROUTES, transfer, type FakeHiro, type RunningFakeHiro } from '../support/fake-hiro';
import { apiEnvironment, cliSuite, cliTempDir, freePort } from '../support/cli-suite';
import { drawShortestBackoff } from '../support/shortest-backoff';
import { runCli } from './run-cli';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');

function config(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    network: 'mainnet',
    contracts: [vault],
    addresses: [alice],
    contractLogs: [{ contractId: vault, contains: 'mint' }],
    startHeight: 1,
    confirmations: 0,
    maxBlocksPerRun: 500,
    ...overrides,
  });
}

/** A local port with nothing listening: connections are refused at once, as with no network. */
const closedPort = freePort;

const temp = cliTempDir('first');
const files = (name: string, body: string) => temp.files(name, body);
// The CLI's runs in the worker retry as in production, without waiting out the backoff (the watcher in a child
// process keeps its real pauses).
drawShortestBackoff();

// Every block of this file runs beside the others, each on its own API and files (the CLI's runs in the worker
// still take turns: test/support/cli-in-process.ts). The watcher's tests share one API and its chain, so they
// run one after another, the outage first: its watcher, a child process, waits out its pauses while the runs in
// the worker wait on their APIs' retries.
describe.concurrent('a running watcher', () => {
  // Without Hiro's deprecation warnings, which a process logs once (see deprecated-routes.test.ts).
  const suite = cliSuite({ name: 'first-watcher', fake: createFakeHiro({ deprecationWarnings: false }), setup: ({ chain }) => chain.mine([coinbase()]) });
  const { fake } = suite;
  const env = () => suite.env;

  it.sequential('after a good start, rides out an outage with growing pauses, saying so once, and says when it works again', async ({ expect }) => {
    const { configPath, statePath } = await files('outage', config({ contracts: [] }));
    let stopFault: (() => void) | undefined;
    let seen = '';
    const run = await runCli(
      ['--interval', '1', '--json', '--config', configPath, '--state', statePath],
      // The block scan asks the tip route each cycle, which the outage fails.
      { ...env(), LOG_LEVEL: 'debug', FETCH_WAY: 'block-scan' },
      {
        timeoutMs: 40_000,
        onStderr: (chunk, child) => {
          seen += chunk;
          // A 400 is not retried, so each failed cycle is quick.
          if (!stopFault && seen.includes('cycle done')) stopFault = fake.faults.use((r) => (r.route === ROUTES.tip ? { status: 400 } : undefined));
          if (stopFault && seen.includes('cycle failed again (2 in a row)')) {
            stopFault();
            stopFault = () => {};
          }
          if (seen.includes('working again')) child.kill('SIGTERM');
        },
      },
    );
    expect(run.code).toBe(0);
    const said = run.stderr.split('\n').filter((l) => / (INFO|WARN|ERROR) /.test(l) && /cycle failed|working again/.test(l));
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/WARN  cycle failed: .*; trying again in 1 s, then with growing pauses up to 10 min/);
    expect(said[1]).toMatch(/INFO  working again after 2 failed cycle\(s\)/);
    expect(run.stderr).toMatch(/cycle failed again \(2 in a row\): .*; next try in 2 s/);
  }, 60_000);

  it.sequential('logs one line for a cycle that did something and nothing at info for a quiet one', async ({ expect }) => {
    const { configPath, statePath } = await files('quiet', config({ contracts: [] }));
    fake.chain.mine([transfer({ to: alice, amount: 5_000_000n })]);
    const busy = await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    expect(busy.code).toBe(0);
    const lines = busy.stderr.trim().split('\n');
    expect(lines, busy.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO  scanned 2 blocks \(1–2\), 1 alert \(1 token_transfer\), at the tip$/);

    const quiet = await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toBe('');
  });

  it.sequential('--status prints the cursor, its age, the lag behind the tip and the pending retractions', async ({ expect }) => {
    const { configPath, statePath } = await files('status', config({ contracts: [] }));
    const none = await runCli(['--status', '--config', configPath, '--state', statePath], env());
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('cursor: none yet');

    await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    fake.chain.mine([transfer({ to: alice, amount: 7n })]);
    await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    fake.chain.reorg(1, [[coinbase()]]);
    await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    fake.chain.mineEmpty(2);

    const run = await runCli(['--status', '--config', configPath, '--state', statePath], env());
    expect(run.code).toBe(0);
    const tip = fake.chain.height;
    expect(run.stdout).toContain(`state: ${statePath} (mainnet)`);
    expect(run.stdout).toMatch(new RegExp(`cursor: block ${tip - 2} 0x[0-9a-f]{64}, mined \\d+ days ago \\(20\\d\\d-`));
    expect(run.stdout).toContain(`tip: block ${tip}, 2 blocks behind`);
    expect(run.stdout).toContain(`pending retractions: 1 alert from replaced blocks, confirmed or retracted once the scan reaches block ${tip - 2 + 10}`);
  });

  it.sequential('warns when startHeight is above the tip and says what it will do', async ({ expect }) => {
    const { configPath, statePath } = await files('ahead', config({ contracts: [], startHeight: 1_000 }));
    const run = await runCli(['--once', '--config', configPath, '--state', statePath], env());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /WARN  startHeight 1000 is above the chain tip \d+: nothing to scan yet; each run checks again and starts there once the chain reaches it/,
    );
  });
});

describe.concurrent('an API out of reach', () => {
  it('exits 1 on the first cycle, naming the host and what to try, with or without --once', async ({ expect }) => {
    const port = await closedPort();
    const { configPath, statePath } = await files('offline', config());
    for (const extra of [[], ['--once']]) {
      const run = await runCli(['--config', configPath, '--state', statePath, ...extra], { STACKS_API_URL: `http://127.0.0.1:${port}` }, { timeoutMs: 40_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot reach the Stacks API at 127.0.0.1:${port}`);
      expect(run.stderr).toMatch(/set STACKS_API_URL to an API you can reach/);
      expect(run.stderr).toContain('npm run demo');
      expect(existsSync(statePath)).toBe(false);
    }
  }, 90_000);
});

describe.concurrent('network and API agree', () => {
  /** The fake API of one test, closed when that test ends. */
  async function start(fake: FakeHiro, onTestFinished: TestContext['onTestFinished']): Promise<RunningFakeHiro> {
    const server = await fake.start();
    onTestFinished(() => server.close());
    return server;
  }

  const testnetConfig = config({
    network: 'testnet',
    contracts: [fakeContractId('vault', 'vault', 'testnet')],
    addresses: [fakeAddress('alice', 'testnet')],
    contractLogs: [],
  });

  it('reads Hiro testnet by default for a testnet config', async ({ expect }) => {
    const { configPath, statePath } = await files('testnet-default', testnetConfig);
    const run = await runCli(['--check', '--config', configPath, '--state', statePath], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("API: https://api.testnet.hiro.so (Hiro's testnet default)");
  });

  it('refuses an API that serves another network: exit 2, the networks named, nothing written', async ({ expect, onTestFinished }) => {
    const fake = createFakeHiro(); // mainnet
    fake.chain.mine([coinbase()]);
    const server = await start(fake, onTestFinished);
    const { configPath, statePath } = await files('mismatch', testnetConfig);
    const run = await runCli(['--once', '--config', configPath, '--state', statePath], apiEnvironment(server.url));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the watch config is for testnet, but the API at 127\.0\.0\.1:\d+ serves mainnet \(its \/v2\/info network_id is 1\)/);
    expect(fake.requests.map((r) => r.route)).toEqual([ROUTES.nodeInfo]);
    expect(existsSync(statePath)).toBe(false);
  });

  it('runs against an API that serves the configured network', async ({ expect, onTestFinished }) => {
    const fake = createFakeHiro({ chain: new FakeChain({ network: 'testnet' }) });
    fake.chain.mine([coinbase()]);
    const server = await start(fake, onTestFinished);
    const { configPath, statePath } = await files('testnet-ok', testnetConfig);
    const run = await runCli(['--once', '--json', '--config', configPath, '--state', statePath], apiEnvironment(server.url));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/serves|could not check/);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'contract_status', network: 'testnet' });
    expect(existsSync(statePath)).toBe(true);
  });
});

describe.concurrent('an API whose /v2/info fails', () => {
  /** The test's own API, closed when the test ends. */
  async function apiWithoutNodeInfo(onTestFinished: TestContext['onTestFinished']) {
    const fake = createFakeHiro();
    fake.chain.mine([transfer({ to: alice, amount: 5_000 })]);
    fake.faults.use((request) => (request.route === ROUTES.nodeInfo ? { status: 500 } : undefined));
    const server = await fake.start();
    onTestFinished(() => server.close());
    return { fake, server };
  }

  it('warns that the network is unchecked and runs the cycle (watch and --replay)', async ({ expect, onTestFinished }) => {
    const { server } = await apiWithoutNodeInfo(onTestFinished);
    const { configPath, statePath } = await files('no-node-info', config());
    const env = apiEnvironment(server.url);
    for (const extra of [
      ['--once', '--state', statePath],
      ['--replay', '1'],
    ]) {
      const run = await runCli(['--json', '--config', configPath, ...extra], env, { timeoutMs: 40_000 });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/could not check that the API serves mainnet: 127\.0\.0\.1:\d+ did not answer \/v2\/info .*500.*; going on/);
      expect(run.stdout).toContain(`"type":"token_transfer"`);
    }
  }, 90_000);

  it('is never asked with --no-network-check', async ({ expect, onTestFinished }) => {
    const { fake, server } = await apiWithoutNodeInfo(onTestFinished);
    const { configPath, statePath } = await files('no-check', config());
    const run = await runCli(['--once', '--no-network-check', '--config', configPath, '--state', statePath], apiEnvironment(server.url));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('could not check');
    expect(fake.requests.map((r) => r.route)).not.toContain(ROUTES.nodeInfo);
  });
});

describe.concurrent('an API whose error text carries terminal escape codes', () => {
  it('shows them escaped on stderr, never raw', async ({ expect }) => {
    const fake = createFakeHiro();
    fake.chain.mine([coinbase()]);
    const hostile = '\u001b[2J\u001b[31mall clear\u202e\u0007';
    fake.faults.use((request) => (request.route === ROUTES.tip ? { status: 500, body: { statusCode: 500, error: 'x', message: hostile } } : undefined));
    const server = await fake.start();
    try {
      const { configPath, statePath } = await files('escapes', config());
      // The block scan asks the tip route, which this API fails.
      const env = { ...apiEnvironment(server.url), FETCH_WAY: 'block-scan' };
      const run = await runCli(['--once', '--no-network-check', '--config', configPath, '--state', statePath], env, { timeoutMs: 40_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('\\x1b[2J\\x1b[31mall clear\\u202e\\x07');
      expect(run.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe.concurrent('--check', () => {
  it('prints what is watched in words, with the API and its budget, and makes no request', async ({ expect }) => {
    const fake = createFakeHiro();
    const server = await fake.start();
    try {
      const sbtc = `${fakeContractId('sbtc-token', 'sbtc')}::sbtc-token`;
      const transfers = [{ asset: sbtc, to: [alice], minAmount: '100', actions: ['mint'] }];
      const { configPath, statePath } = await files('check', config({ confirmations: 2, transfers }));
      const run = await runCli(['--check', '--config', configPath, '--state', statePath], { STACKS_API_URL: server.url });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${configPath} is valid. stacks-watch would watch mainnet:`);
      expect(run.stdout).toContain(`- deployment status of 1 contract (an alert on first sight and on every change):\n    ${vault}`);
      expect(run.stdout).toContain(`- STX arriving at 1 address (an alert for each transfer, native or inside a contract call):\n    ${alice}`);
      expect(run.stdout).toContain(`- asset movements by 1 transfer rule:\n    ${sbtc} to ${alice} (at least 100 base units; mint)`);
      expect(run.stdout).toContain(`    ${vault} (logs containing "mint")`);
      expect(run.stdout).toContain(
        '- first run starts at block 1 (later runs resume from the saved cursor), 2 blocks behind the tip, at most 500 blocks a cycle',
      );
      expect(run.stdout).toContain(`API: ${server.url} (from STACKS_API_URL), without an API key, at most 50 requests a minute`);
      expect(fake.count()).toBe(0);
      expect(existsSync(statePath)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('exits 2 naming the problem for a bad config', async ({ expect }) => {
    const { configPath } = await files('check-bad', config({ adresses: [] }));
    const run = await runCli(['--check', '--config', configPath], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('adresses');
    expect(run.stdout).toBe('');
  });
});

describe.concurrent('mistakes named', () => {
  it('rejects an unknown LOG_LEVEL', async ({ expect }) => {
    const { configPath } = await files('loglevel', config());
    const run = await runCli(['--check', '--config', configPath], { LOG_LEVEL: 'verbose' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('LOG_LEVEL must be one of debug, info, warn, error, got "verbose"');
  });

  it('says to set AWS_REGION for --table without a region', async ({ expect }) => {
    const { configPath } = await files('region', config());
    const run = await runCli(['--check', '--table', 'watch-state', '--config', configPath], {
      HOME: temp.dir,
      AWS_CONFIG_FILE: temp.path('no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: temp.path('no-aws-credentials'),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--table needs an AWS region: set AWS_REGION');
  });
});
