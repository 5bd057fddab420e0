// What is read of transactions beyond the v3 block list: events only for transactions whose `event_count`
// (every v3 summary has one since API 9.7.0) is not 0, and the arguments and result of a call only for calls
// a `calls` rule alerts on, from `/extended/v3/transactions/{tx_id}?include=function_args&include=result`,
// whichever events route still answers. Never a null where the alert promises a value.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { blockAlerts, transactionReads } from '../../lambda/core/match/block-alerts';
import { HiroInconsistentDataError, HiroResponseError } from '../../lambda/hiro';
import { config, TOKEN } from '../core/harness';
import { contractCall, fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const alice = fakeAddress('alice');
const ALL_DEPRECATED = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block];
const withdrawRule = compileWatchRules(config({ contractLogs: [], addresses: [], calls: [{ contractId: TOKEN, status: 'any', functions: ['withdraw'] }] }));

async function chainWithCalls() {
  const h = await startHarness();
  const block = h.fake.chain.mine([
    contractCall({
      contractId: TOKEN,
      functionName: 'withdraw',
      args: [Cl.uint(100), Cl.principal(alice)],
      result: Cl.error(Cl.uint(102)),
      status: 'abort_by_response',
    }),
    contractCall({ contractId: TOKEN, functionName: 'deposit', args: [Cl.uint(5)] }),
    contractCall({ contractId: TOKEN, functionName: 'withdraw', args: [] }),
  ]);
  return { h, block };
}

describe('call details on the v3 path', () => {
  it('reads the arguments and result of the calls a rule alerts on, and of no other call', async () => {
    const { h, block } = await chainWithCalls();
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();
    const read = (await client.getBlock(block.height))!;

    const reads = transactionReads(read, withdrawRule);
    const events = await client.getTransactionEvents(reads);
    const alerts = blockAlerts(read, events, withdrawRule, 'mainnet');

    expect(reads).toEqual([0, 2].map((i) => ({ txId: block.txs[i]!.txId, eventCount: 0, events: false, call: true })));
    // The fake writes principals' Clarity text without the API's leading quote.
    expect(alerts.map((a) => a.type === 'contract_call' && [a.tx_id, a.args, a.result_repr])).toEqual([
      [block.txs[0]!.txId, ['u100', alice], '(err u102)'],
      [block.txs[2]!.txId, [], '(ok true)'],
    ]);
    expect(h.fake.requestsTo(ROUTES.v3Transaction).map((r) => r.url)).toEqual(
      [0, 2].map((i) => `/extended/v3/transactions/${block.txs[i]!.txId}?include=function_args&include=result`),
    );
    expect(h.fake.count(ROUTES.v3TransactionEvents)).toBe(0);
  });

  it('gives the same alerts as the v2 list, which lists arguments and results itself', async () => {
    const { h, block } = await chainWithCalls();
    const v2Client = h.client();
    const v2Block = (await v2Client.getBlock(block.height))!;
    const v2 = blockAlerts(v2Block, await v2Client.getTransactionEvents(transactionReads(v2Block, withdrawRule)), withdrawRule, 'mainnet');
    expect(h.fake.count(ROUTES.v3Transaction)).toBe(0);

    h.fake.retire(...ALL_DEPRECATED);
    const v3Client = h.client();
    const v3Block = (await v3Client.getBlock(block.height))!;
    const v3 = blockAlerts(v3Block, await v3Client.getTransactionEvents(transactionReads(v3Block, withdrawRule)), withdrawRule, 'mainnet');

    expect(v3).toEqual(v2);
  });

  it('reads call details from the v3 route while /tx/multiple still serves the events', async () => {
    const { h, block } = await chainWithCalls();
    h.fake.retire(ROUTES.blockTransactions);
    const client = h.client();

    const events = await client.getTransactionEvents([
      { txId: block.txs[0]!.txId, eventCount: 2, call: true },
      { txId: block.txs[1]!.txId, eventCount: 1 },
    ]);

    expect(events.get(block.txs[0]!.txId)?.call).toEqual({ functionName: 'withdraw', args: ['u100', alice], resultRepr: '(err u102)' });
    expect(events.get(block.txs[1]!.txId)?.call).toBeUndefined();
    expect(h.fake.requestsTo(ROUTES.txMultiple)[0]?.query.getAll('tx_id')).toEqual([block.txs[0]!.txId, block.txs[1]!.txId]);
    expect(h.fake.count(ROUTES.v3Transaction)).toBe(1);
  });

  it('refuses an answer without the arguments it asked for rather than alert with none', async () => {
    const { h, block } = await chainWithCalls();
    h.fake.retire(...ALL_DEPRECATED);
    h.fake.faults.once({ transform: (b) => ({ ...(b as object), contract_call: { contract_id: TOKEN, function_name: 'withdraw' } }) }, ROUTES.v3Transaction);

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: 0, events: false, call: true }]));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toMatch(/contract_call\.function_args: missing/);
  });

  it('calls a 404 for a transaction the block list just named an inconsistency, tried again next run', async () => {
    const { h, block } = await chainWithCalls();
    h.fake.retire(...ALL_DEPRECATED);
    h.fake.faults.once({ status: 404 }, ROUTES.v3Transaction);

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: 0, events: false, call: true }]));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain(`transaction ${block.txs[0]!.txId} is in a block the API listed`);
  });
});

describe('event counts on the v3 path', () => {
  it('reads the events of transactions that have any, and asks nothing of those with none', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      contractCall({ contractId: TOKEN, functionName: 'noop' }),
      contractCall({ contractId: TOKEN, logs: ['minted'] }),
      transfer({ to: alice, amount: 5 }),
    ]);
    h.fake.retire(...ALL_DEPRECATED);
    const client = h.client();
    const read = (await client.getBlock(block.height))!;
    const logsRule = compileWatchRules(config({ contractLogs: [{ contractId: TOKEN }], addresses: [] }));

    const reads = transactionReads(read, logsRule);
    const events = await client.getTransactionEvents(reads);

    expect(read.transactions.map((tx) => tx.eventCount)).toEqual([0, 1, 1]);
    expect(reads.map((r) => r.txId)).toEqual([block.txs[1]!.txId]);
    expect(events.get(block.txs[1]!.txId)?.logs).toHaveLength(1);
    expect(h.fake.requestsTo(ROUTES.v3TransactionEvents).map((r) => r.path)).toEqual([`/extended/v3/transactions/${block.txs[1]!.txId}/events`]);
  });
});
