// Windows end to end: the real CLI against the fake Hiro API. The treasury (a sum of outflows in 60 minutes,
// past 2^53) and the failing vault (5 failed withdraw calls in 10 minutes) cross, fall below and cross
// again by block time; the same blocks give the same alerts in --replay; a reorg that takes away a
// crossing's matches retracts it. See docs/windows.md.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, transfer, type FakeBlock } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const treasury = fakeAddress('treasury');
const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');
const T0 = 1_750_000_000;

/** 1e19 micro-STX: past 2^53, where a JSON number would have lost digits. */
const DRAIN = '10000000000000000000';

const failedWithdraw = (amount = 5) =>
  contractCall({
    contractId: vault,
    functionName: 'withdraw',
    sender: alice,
    status: 'abort_by_response',
    args: [Cl.uint(amount)],
    result: Cl.error(Cl.uint(102)),
  });

const WINDOWS_CONFIG = {
  network: 'mainnet',
  transfers: [{ name: 'treasury outflows', asset: 'stx', from: [treasury], alert: false }],
  calls: [{ name: 'vault withdraw failed', contractId: vault, functions: ['withdraw'], status: 'failed' }],
  windows: [
    { name: 'treasury drain', of: 'treasury outflows', minutes: 60, sum: 'amount', atLeast: DRAIN, severity: 'critical' },
    { name: 'withdraw failures', of: 'vault withdraw failed', minutes: 10, count: 5, severity: 'critical' },
  ],
  startHeight: 1,
};

const windowKey = (name: string, block: FakeBlock, tx: number, kind = 'token_transfer') => `window_threshold:${name}:${kind}:${block.txs[tx]!.txId}`;

describe('windows through the CLI', () => {
  const blocks: FakeBlock[] = [];
  const suite = cliSuite({ name: 'windows', config: WINDOWS_CONFIG, setup: () => mineWindows() });
  const { chain } = suite;

  function mineWindows() {
    const at = (seconds: number, txs: Parameters<typeof chain.mine>[0]) => blocks.push(chain.mine(txs, { time: T0 + seconds }));
    at(0, [coinbase()]); // 1
    at(60, [transfer({ from: treasury, to: alice, amount: 6_000_000_000_000_000_000n })]); // 2: 6e18
    at(120, [transfer({ from: treasury, to: bob, amount: 5_000_000_000_000_000_000n }), transfer({ to: treasury, amount: 7n })]); // 3: 1.1e19, crosses
    at(600, [transfer({ from: treasury, to: alice, amount: 1_000_000_000_000_000_000n })]); // 4: 1.2e19, still above: no alert
    at(3660, [coinbase()]); // 5: block 2 is an hour old: 6e18, below
    at(3700, [transfer({ from: treasury, to: bob, amount: 5_000_000_000_000_000_000n })]); // 6: 1.1e19, crosses again
    at(4000, [failedWithdraw(), failedWithdraw(), failedWithdraw(), contractCall({ contractId: vault, functionName: 'withdraw', sender: bob })]); // 7: 3 failed
    at(4100, [failedWithdraw(), contractCall({ contractId: vault, functionName: 'deposit', status: 'abort_by_response' })]); // 8: 4 failed
    at(4200, [failedWithdraw()]); // 9: 5 failed, crosses
    at(4620, [coinbase()]); // 10: block 7's three are 10 minutes old: 2, below
    at(4690, [failedWithdraw(), failedWithdraw(), failedWithdraw()]); // 11: with blocks 8 and 9, 5: crosses again
  }

  const expectedWindowKeys = () => [
    windowKey('treasury drain', blocks[2]!, 0),
    windowKey('treasury drain', blocks[5]!, 0),
    windowKey('withdraw failures', blocks[8]!, 0, 'contract_call'),
    windowKey('withdraw failures', blocks[10]!, 2, 'contract_call'),
  ];

  it('crosses by sum (beyond 2^53) and by count, once per crossing, again only after falling below; a rule with "alert": false only feeds its window', async () => {
    const run = await suite.run(suite.args(), { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    const windows = alerts.filter((a) => a.type === 'window_threshold');
    expect(windows.map((a) => a.key)).toEqual(expectedWindowKeys());
    expect(alerts.filter((a) => a.type === 'token_transfer')).toEqual([]); // the treasury rule says "alert": false
    expect(alerts.filter((a) => a.type === 'contract_call')).toHaveLength(8); // the failed withdraw calls still alert
    expect(windows[0]).toMatchObject({
      rule: 'treasury drain',
      of: 'treasury outflows',
      minutes: 60,
      count: 2,
      sum: '11000000000000000000',
      threshold: DRAIN,
      first_block_height: 2,
      last_block_height: 3,
      block_height: 3,
      tx_id: blocks[2]!.txs[0]!.txId,
      tx_ids: [blocks[1]!.txs[0]!.txId, blocks[2]!.txs[0]!.txId],
      tx_count: 2,
      severity: 'critical',
    });
    expect(windows[1]).toMatchObject({ sum: '11000000000000000000', first_block_height: 3, last_block_height: 6, count: 3 });
    expect(windows[2]).toMatchObject({ count: 5, sum: null, threshold: '5', first_block_height: 7, last_block_height: 9, tx_count: 5 });
    expect(windows[3]).toMatchObject({ count: 5, first_block_height: 8, last_block_height: 11 });
  });

  it('gives the same alerts, keys and fields, with --replay over the same blocks', async () => {
    const live = await suite.run(suite.args('fresh.json'), { timeoutMs: 30_000 });
    const replay = await suite.run(['--replay', `1..${chain.height}`, '--json', '--config', suite.configPath], { timeoutMs: 30_000 });
    expect(replay.code, replay.stderr).toBe(0);
    expect(
      jsonLines(replay.stdout)
        .filter((a) => a.type === 'window_threshold')
        .map((a) => a.key),
    ).toEqual(expectedWindowKeys());
    expect(jsonLines(replay.stdout)).toEqual(jsonLines(live.stdout));
  });

  it('carries the counts from one run to the next: a window crossing spans runs', async () => {
    const state = suite.path('runs.json');
    // The first run stops after block 8 (four failed withdrawals); the fifth, in block 9, is seen by the second run.
    const config = await suite.write('split.json', { ...WINDOWS_CONFIG, maxBlocksPerRun: 8 });
    const first = await suite.run(['--once', '--json', '--config', config, '--state', state], { timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(
      jsonLines(first.stdout)
        .filter((a) => a.type === 'window_threshold')
        .map((a) => a.key),
    ).toEqual(expectedWindowKeys().slice(0, 2));
    const second = await suite.run(['--once', '--json', '--config', config, '--state', state], { timeoutMs: 30_000 });
    expect(
      jsonLines(second.stdout)
        .filter((a) => a.type === 'window_threshold')
        .map((a) => a.key),
    ).toEqual(expectedWindowKeys().slice(2));
  });

  it('refuses at config time a window whose rule does not exist, a sum over calls, and a window too long for its cap', async () => {
    const bad = {
      ...WINDOWS_CONFIG,
      windows: [
        { name: 'a', of: 'no such rule', minutes: 10, count: 2 },
        { name: 'b', of: 'vault withdraw failed', minutes: 10, sum: 'amount', atLeast: '5' },
        { name: 'c', of: 'treasury outflows', minutes: 1440, sum: 'amount', atLeast: '5' },
      ],
    };
    const run = await suite.run(['--check', '--config', await suite.write('bad.json', bad)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('$.windows[0].of');
    expect(run.stderr).toContain('names no rule');
    expect(run.stderr).toContain('$.windows[1].sum');
    expect(run.stderr).toContain('its alerts carry no amount');
    expect(run.stderr).toContain('$.windows[2].minutes');
    expect(run.stderr).toContain('more than the 2,000 a window may: use at most 166 minutes');
  });
});

describe('a window across a reorg', () => {
  const suite = cliSuite({ name: 'windows-reorg', config: WINDOWS_CONFIG });
  const { chain } = suite;

  it('retracts a crossing whose matches a reorg took away, and crosses again on the new chain', async () => {
    chain.mine([coinbase()]); // 1
    chain.mine([failedWithdraw(), failedWithdraw(), failedWithdraw()]); // 2
    const crossing = chain.mine([failedWithdraw(), failedWithdraw()]); // 3: 5 in 10 minutes
    const first = await suite.run(suite.args(), { timeoutMs: 30_000 });
    const key = windowKey('withdraw failures', crossing, 1, 'contract_call');
    expect(
      jsonLines(first.stdout)
        .filter((a) => a.type === 'window_threshold')
        .map((a) => a.key),
    ).toEqual([key]);

    // Block 3 is replaced by one without the two failures; the old chain's height plus the grace passes.
    chain.reorg(1, [[coinbase()]]);
    chain.mineEmpty(11);
    const second = await suite.run(suite.args(), { timeoutMs: 30_000 });
    expect(second.code, second.stderr).toBe(0);
    const retractions = jsonLines(second.stdout).filter((a) => a.type === 'retraction');
    expect(retractions.map((a) => a.retracts)).toContain(key);
    expect(jsonLines(second.stdout).filter((a) => a.type === 'window_threshold')).toEqual([]);

    // The window now holds block 2's three failures and nothing of the replaced block 3, so two more (within
    // 10 minutes of block 2) cross it again; had block 3's two stayed, it would still be above and say nothing.
    const again = chain.mine([failedWithdraw(), failedWithdraw()]);
    const third = await suite.run(suite.args(), { timeoutMs: 30_000 });
    expect(
      jsonLines(third.stdout)
        .filter((a) => a.type === 'window_threshold')
        .map((a) => a.key),
    ).toEqual([windowKey('withdraw failures', again, 1, 'contract_call')]);
  });
});
