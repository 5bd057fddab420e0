// The CLI given a bad watch config, environment or state file: a clear error naming what to fix, exit code
// 2, the state file left byte for byte as it was (no lock left behind), and not one request to the API.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeHiro, type RunningFakeHiro } from '../support/fake-hiro';
import { runCli } from '../e2e/run-cli';
import { loadCliInProcess } from '../support/cli-in-process';
import { alice } from './watched-chain';

const VALID_CONFIG = { network: 'mainnet', addresses: [alice], startHeight: 1 };
const EVERY_FIELD_INVALID = {
  network: 'mainet',
  contracts: ['SP000000000000000000002Q6VF78'],
  addresses: ['nope'],
  contractLogs: [{ contractId: 'x.y', contains: 5 }],
  startHeight: -1,
  confirmations: 'two',
  maxBlocksPerRun: 0,
  adresses: [],
};
const STATE = JSON.stringify({
  format: 1,
  network: 'mainnet',
  cursor: { height: 7, hash: `0x${'ab'.repeat(32)}`, time: 1_750_000_000, version: 3 },
  lease: null,
  blocks: {},
  contracts: {},
  alerts: {},
});

interface Setup {
  name: string;
  config?: string;
  state?: string;
  env?: Record<string, string>;
  /** Without a config file at all. */
  noConfig?: boolean;
  stderr: RegExp[];
}

const SETUPS: Setup[] = [
  {
    name: 'every field of the watch config invalid at once',
    config: JSON.stringify(EVERY_FIELD_INVALID),
    stderr: [
      /\$\.network.*"mainnet" or "testnet"/,
      /\$\.contracts\[0\].*contract-name/,
      /\$\.addresses\[0\].*not a valid Stacks address/,
      /\$\.contractLogs\[0\]\.contractId/,
      /\$\.contractLogs\[0\]\.contains/,
      /\$\.startHeight/,
      /\$\.confirmations/,
      /\$\.maxBlocksPerRun/,
      /\$\.adresses.*did you mean "addresses"/,
    ],
  },
  { name: 'a watch config that is not JSON', config: '{ "network": "mainnet", }', stderr: [/line 1/] },
  { name: 'no watch config file', noConfig: true, stderr: [/watch\.json/] },
  {
    name: 'a request budget that is not a number',
    config: JSON.stringify(VALID_CONFIG),
    env: { STACKS_API_RPM: 'fast' },
    stderr: [/STACKS_API_RPM must be a whole number/],
  },
  {
    name: 'an API URL that would send the key in clear',
    config: JSON.stringify(VALID_CONFIG),
    env: { STACKS_API_URL: 'http://api.example.com' },
    stderr: [/uses http:\/\/.*use https:\/\//],
  },
  {
    name: 'a state file that is not JSON',
    config: JSON.stringify(VALID_CONFIG),
    state: '{"format":1,',
    stderr: [/state file .* is not valid JSON.*move it away/],
  },
  {
    name: 'a state file of the other network',
    config: JSON.stringify(VALID_CONFIG),
    state: STATE.replace('"mainnet"', '"testnet"'),
    stderr: [/belongs to testnet, but the watch config is for mainnet; use --state/],
  },
];

describe.concurrent('the CLI refuses a bad setup before touching anything', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let root: string;
  beforeAll(async () => {
    fake.chain.mine([]);
    server = await fake.start();
    root = await mkdtemp(join(tmpdir(), 'stacks-watch-bad-'));
    await loadCliInProcess();
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  for (const [index, setup] of SETUPS.entries()) {
    it(`exits 2 naming the problem, leaves the state as it was, asks the API nothing: ${setup.name}`, async () => {
      const dir = join(root, String(index));
      await mkdir(dir);
      const config = join(dir, 'watch.json');
      const state = join(dir, 'state.json');
      if (!setup.noConfig) await writeFile(config, setup.config!);
      const stateBefore = setup.state ?? STATE;
      await writeFile(state, stateBefore);
      const requestsBefore = fake.requests.length;

      const run = await runCli(['--once', '--config', config, '--state', state], {
        STACKS_API_URL: server.url,
        ...setup.env,
      });

      expect(run.code, run.stderr).toBe(2);
      for (const pattern of setup.stderr) expect(run.stderr).toMatch(pattern);
      expect(run.stdout).toBe('');
      expect(await readFile(state, 'utf8')).toBe(stateBefore);
      expect((await readdir(dir)).sort()).toEqual(setup.noConfig ? ['state.json'] : ['state.json', 'watch.json']);
      expect(fake.requests.length).toBe(requestsBefore);
    });
  }
});
