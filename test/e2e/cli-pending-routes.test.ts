// Pending rules end to end on the mempool routes Hiro keeps: the same waiting transactions raise the same
// pending alerts, field for field, whether the CLI reads the v3 mempool list or, on an API without it (404),
// the deprecated v1 list, which costs one operator notice; the deprecated routes answering 410 change nothing.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ROUTES, transfer, type FakeChain } from '../support/fake-hiro';
import type { CliSuite } from '../support/cli-suite';
import { pendingSuite } from './pending-suite';
import { jsonLines } from './run-cli';

const attacker = fakeAddress('attacker');
const treasury = fakeAddress('treasury');
const exchange = fakeAddress('exchange');
const vault = fakeContractId('vault');

const config = {
  network: 'mainnet',
  calls: [{ contractId: vault, functions: ['set-owner', 'upgrade'], name: 'Owner change', severity: 'critical', pending: true }],
  transfers: [{ asset: 'stx', from: [treasury], minAmount: '1000000', name: 'Treasury outflow', severity: 'critical', pending: true }],
  startHeight: 1,
};

/** The same waiting transactions on either chain: matching and unmatching calls and transfers, a memo. */
function scriptMempool(chain: FakeChain): void {
  chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }), { receivedAt: 1_749_999_990 });
  chain.submit(transfer({ from: treasury, to: exchange, amount: 250_000_000n, memo: 'acct 42' }), { receivedAt: 1_749_999_991 });
  chain.submit(contractCall({ contractId: vault, functionName: 'deposit', sender: attacker }), { receivedAt: 1_749_999_992 });
  chain.submit(transfer({ from: treasury, to: exchange, amount: 5 }), { receivedAt: 1_749_999_993 });
  chain.submit(contractCall({ contractId: vault, functionName: 'upgrade', sender: exchange, args: [Cl.uint(7)] }), { receivedAt: 1_749_999_994 });
}

async function run(suite: CliSuite) {
  suite.fake.clearLog();
  const result = await suite.run(suite.args());
  expect(result.code, result.stderr).toBe(0);
  return { ...result, lines: jsonLines(result.stdout) };
}

const isPending = (line: Record<string, unknown>) => String(line.type).startsWith('pending_');

describe('pending alerts on the v3 mempool list and, on an API without it, the v1 list', () => {
  const v3 = pendingSuite('pending-v3', config, null);
  const v1 = pendingSuite('pending-v1', config, ROUTES.v3Mempool);
  let firstV1Run: Awaited<ReturnType<typeof run>> | undefined;

  it('alerts the same waiting calls and transfers, field for field, whichever list was read', async () => {
    scriptMempool(v3.chain);
    scriptMempool(v1.chain);
    const fromV3 = (await run(v3)).lines.filter(isPending);
    firstV1Run = await run(v1);
    const fromV1 = firstV1Run.lines.filter(isPending);
    expect(fromV3.map((a) => a.type)).toEqual(['pending_call', 'pending_transfer', 'pending_call']);
    expect(fromV1).toEqual(fromV3);
    expect(v1.fake.count(ROUTES.v1Mempool)).toBe(1);
    expect(v3.fake.count(ROUTES.v1Mempool)).toBe(0);
  });

  it('tells the operator once that the API has no v3 mempool list, not on every run', async () => {
    const later = [await run(v1), await run(v1)];
    // Each CLI run is a process of its own: it pays the v3 list's 404 once, then one v1 page in the common case.
    expect([v1.fake.count(ROUTES.v3Mempool), v1.fake.count(ROUTES.v1Mempool)]).toEqual([1, 1]);
    const notices = (stderr: string) =>
      stderr.split('\n').filter((line) => line.includes('operatorNotice') && line.includes('/extended/v3/mempool/transactions'));
    expect(notices(firstV1Run!.stderr)).toHaveLength(1);
    expect(notices(firstV1Run!.stderr)[0]).toContain('/extended/v1/tx/mempool');
    expect(later.flatMap((result) => notices(result.stderr))).toEqual([]);
    expect(later.map((result) => result.lines)).toEqual([[], []]);
  });

  it('still alerts waiting transactions, with their arguments, while the deprecated mempool routes answer 410', async () => {
    v3.fake.retire(ROUTES.v1Mempool, ROUTES.txMultiple);
    const call = v3.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: exchange, args: [Cl.uint(9)] }), {
      receivedAt: 1_750_000_100,
    });
    const { lines } = await run(v3);
    expect(lines.filter(isPending)).toEqual([expect.objectContaining({ type: 'pending_call', tx_id: call.txId, args: ['u9'] })]);
    expect(v3.fake.count(ROUTES.v1Mempool)).toBe(0);
    expect(v3.fake.count(ROUTES.v3Mempool)).toBe(1);
  });
});
