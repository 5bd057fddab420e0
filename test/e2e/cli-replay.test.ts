// `npm start -- --replay`: the block rules tried on past blocks through the real CLI against the fake API,
// with nothing read or written but the API.
import { access } from 'node:fs/promises';
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, deploy, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');
const router = fakeContractId('router');

const withdrawal = (amount: bigint, user = alice) =>
  Cl.tuple({ action: Cl.stringAscii('withdraw'), amount: Cl.uint(amount), user: Cl.standardPrincipal(user) });

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('--replay: rules tried on past blocks', () => {
  const expected: string[] = [];
  const suite = cliSuite({
    name: 'replay',
    config: {
      network: 'mainnet',
      contracts: [vault],
      addresses: [alice],
      contractLogs: [{ contractId: vault, where: { action: 'withdraw', amount: { gte: '1000000000' } } }],
      calls: [{ contractId: vault, status: 'failed' }],
    },
    setup: async ({ write }) => {
      await write('calls.json', { network: 'mainnet', calls: [{ contractId: vault, functions: ['withdraw'] }] });
      mineBlocks();
    },
  });
  const { fake, chain } = suite;

  function mineBlocks() {
    chain.mine([coinbase(), deploy({ contractId: vault })]); // 1
    const b2 = chain.mine([
      contractCall({ contractId: vault, functionName: 'withdraw', logs: [withdrawal(5n), withdrawal(2_000_000_000n)] }),
      transfer({ to: alice, amount: 42 }),
    ]);
    expected.push(`contract_log:${b2.txs[0]!.txId}:1`, `token_transfer:${b2.txs[1]!.txId}`);
    chain.mineEmpty(1); // 3
    const b4 = chain.mine([
      contractCall({ contractId: vault, functionName: 'withdraw', status: 'abort_by_response', args: [Cl.uint(9)], result: Cl.error(Cl.uint(102)) }),
      contractCall({ contractId: router, logs: [{ printer: vault, value: withdrawal(7_000_000_000n, bob) }] }),
    ]);
    expected.push(`contract_call:${b4.txs[0]!.txId}`, `contract_log:${b4.txs[1]!.txId}:0`);
    chain.mine([transfer({ to: bob, amount: 1 })]); // 5
  }

  const replay = (range: string, config = 'watch.json', json = true) =>
    suite.run(['--replay', range, ...(json ? ['--json'] : []), '--config', suite.path(config), '--state', suite.path('state.json')], { timeoutMs: 30_000 });

  it('prints what the block rules would have alerted in the range, and writes no state', async () => {
    const run = await replay('1..5');
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    expect(alerts.map((a) => a.key)).toEqual(expected);
    expect(alerts.find((a) => a.type === 'contract_call')).toMatchObject({
      function_name: 'withdraw',
      tx_status: 'abort_by_response',
      args: ['u9'],
      result_repr: '(err u102)',
      block_height: 4,
    });
    expect(alerts.find((a) => a.type === 'contract_log')).toMatchObject({ value: { action: 'withdraw', amount: '2000000000', user: alice } });
    expect(run.stderr).toContain('replayed 5 blocks (1–5): 4 alerts would have been sent');
    expect(await exists(suite.path('state.json'))).toBe(false);
    expect(await exists(suite.path('state.json.lock'))).toBe(false);
  });

  it('gives the same alerts, keys included, when the same rules run twice on the same blocks', async () => {
    const [first, second] = [await replay('2..4'), await replay('2..4')];
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout).map((a) => a.key)).toEqual(expected);
    expect(second.stdout).toBe(first.stdout);
  });

  it('prints for people without --json', async () => {
    const run = await replay('4', 'watch.json', false);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('withdraw on vault failed (block 4)');
    expect(run.stdout).toContain('failed: the contract refused: err u102');
  });

  it('reads the block lists only when the rules are calls: no event requests', async () => {
    const before = fake.count(ROUTES.txMultiple);
    const run = await replay('1..5', 'calls.json');
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).map((a) => a.type)).toEqual(['contract_call', 'contract_call']);
    expect(fake.count(ROUTES.txMultiple)).toBe(before);
  });

  it('exits 2 for a range past the tip or written wrong, before reading any block', async () => {
    const before = fake.count(ROUTES.blockTransactions);
    const past = await replay('4..99');
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('block 99 is above the chain tip (5)');
    const backwards = await replay('5..4');
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('ends before it starts');
    expect(fake.count(ROUTES.blockTransactions)).toBe(before);
    expect(past.stdout + backwards.stdout).toBe('');
  });

  it('exits 2 naming the JSON path of a bad where', async () => {
    await suite.write('bad.json', { network: 'mainnet', contractLogs: [{ contractId: vault, where: { amount: { gte: 'lots' } } }] });
    const run = await replay('1..2', 'bad.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('$.contractLogs[0].where.amount.gte');
  });
});
