// A token only its metadata knows the decimals of, end to end: the real CLI against the fake Hiro API, a
// balance rule written "below": "5 ALEX" with no `decimals`. The decimals are read once from the token
// metadata API and kept in the state file; the alert speaks in ALEX; a token the API does not know refuses
// the config naming the fix; `--check` asks no API.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES } from '../support/fake-hiro';
import { cliSuite, freePort } from '../support/cli-suite';
import { drawShortestBackoff } from '../support/shortest-backoff';
import { jsonLines } from './run-cli';

const pool = fakeAddress('pool');
const treasury = fakeAddress('treasury');
const alex = `${fakeContractId('token-alex')}::alex`;
const unknownToken = `${fakeContractId('mystery-token')}::mystery`;

// The CLI's runs in the worker retry as in production, without waiting out the backoff.
drawShortestBackoff();

describe("the CLI reads a token's decimals from its metadata, once", () => {
  const suite = cliSuite({
    name: 'token-metadata',
    config: { network: 'mainnet', startHeight: 2, balances: [{ name: 'pool low', address: pool, asset: alex, below: '5 ALEX' }] },
    setup: ({ chain }) => {
      chain.setTokenMetadata(alex, { decimals: 8, symbol: 'ALEX' });
      chain.setGenesisBalance(pool, alex, 600_000_000); // 6 ALEX
    },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;

  it('says at --check, asking no API, that the decimals will be read at start', async () => {
    const run = await suite.run(['--check', '--config', suite.configPath, '--state', suite.path('state.json')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${alex}'s decimals will be read from the token metadata API at start`);
    expect(fake.count(ROUTES.tokenMetadata)).toBe(0);
  }, 30_000);

  it('alerts the balance crossing below 5 ALEX in ALEX, reading the decimals from the metadata', async () => {
    chain.mine([]); // 1
    const b2 = chain.mine([contractCall({ contractId: fakeContractId('dex'), events: [ftTransferEvent(alex, pool, treasury, 150_000_000)] })]);
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([
      expect.objectContaining({
        rule: 'pool low',
        asset_id: alex,
        crossed: 'below',
        balance: '450000000',
        threshold: '500000000',
        decimals: 8,
        symbol: 'ALEX',
        tx_id: b2.txs[0]!.txId,
      }),
    ]);
    expect(fake.count(ROUTES.tokenMetadata)).toBe(1);
  }, 30_000);

  it('reads the decimals from the state file on a second start, asking the API nothing, and --check uses them', async () => {
    chain.mine([]);
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const check = await suite.run(['--check', '--config', suite.configPath, '--state', suite.path('state.json')]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).not.toContain('will be read from the token metadata API');
    expect(fake.count(ROUTES.tokenMetadata)).toBe(1);
  }, 30_000);

  it('refuses a config whose token the metadata API does not know, naming it and the fix, and stores nothing', async () => {
    const { configPath, statePath } = await suite.files('unknown', {
      network: 'mainnet',
      balances: [{ name: 'mystery low', address: pool, asset: unknownToken, below: '5 MYST' }],
    });
    const run = await suite.run(['--once', '--json', '--config', configPath, '--state', statePath]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${unknownToken}'s decimals are not in the token metadata API`);
    expect(run.stderr).toContain('give "decimals"');
    expect(run.stdout).toBe('');
    expect(existsSync(statePath)).toBe(false);
  }, 30_000);

  it('exits 1, the code of an API out of reach, when the token metadata API gives no answer at start, and stores nothing', async () => {
    const { configPath, statePath } = await suite.files('api-down', {
      network: 'mainnet',
      balances: [{ name: 'diko low', address: pool, asset: `${fakeContractId('token-diko')}::diko`, below: '5 DIKO' }],
    });
    const run = await suite.run(['--once', '--json', '--config', configPath, '--state', statePath], {
      env: { STACKS_API_URL: `http://127.0.0.1:${await freePort()}` },
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('cannot reach the Stacks API at 127.0.0.1');
    expect(run.stderr).toContain('token-diko::diko');
    expect(run.stdout).toBe('');
    expect(existsSync(statePath)).toBe(false);
  }, 30_000);
});
