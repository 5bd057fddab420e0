import { Cl, serializeCV } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { HiroInconsistentDataError, MAX_URL_LENGTH } from '../../lambda/hiro';
import { contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, transfer, type FakeTx } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const vault = fakeContractId('vault');
const oracle = fakeContractId('oracle');

function asInput(txs: readonly FakeTx[]) {
  return txs.map((tx) => ({ txId: tx.txId, eventCount: tx.events.length }));
}

describe('getTransactionEvents', () => {
  it('fetches the events of many transactions in one call', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(Array.from({ length: 40 }, (_, i) => contractCall({ contractId: vault, logs: [`log ${i}`] })));

    const events = await h.client().getTransactionEvents(asInput(block.txs));

    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
    expect(h.fake.requestsTo(ROUTES.txMultiple)[0]?.query.getAll('tx_id')).toHaveLength(40);
    expect(events.get(block.txs[7]!.txId)?.logs.map((log) => log.valueRepr)).toEqual(['"log 7"']);
  });

  it('splits the ids over several calls only once the URL would pass the length budget', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine(Array.from({ length: 300 }, () => contractCall({ contractId: vault, logs: ['x'] })));

    const events = await h.client().getTransactionEvents(asInput(block.txs));

    const calls = h.fake.requestsTo(ROUTES.txMultiple);
    const urlLengths = calls.map((r) => `${h.url}${r.url}`.length);
    const idBytes = `&tx_id=${block.txs[0]!.txId}`.length;
    // Each call is under the budget, and all but the last could not have taken one more id.
    expect(Math.max(...urlLengths)).toBeLessThanOrEqual(MAX_URL_LENGTH);
    for (const length of urlLengths.slice(0, -1)) expect(length + idBytes).toBeGreaterThan(MAX_URL_LENGTH);
    expect(calls.length).toBe(3);
    expect(events.size).toBe(300);
  });

  it('skips transactions without events but still answers for them', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault }), contractCall({ contractId: vault, logs: ['hi'] })]);

    const events = await h.client().getTransactionEvents(asInput(block.txs));

    const [request] = h.fake.requestsTo(ROUTES.txMultiple);
    expect(request?.query.getAll('tx_id')).toEqual([block.txs[1]!.txId]);
    expect(events.get(block.txs[0]!.txId)).toEqual({ txId: block.txs[0]!.txId, logs: [], assets: [] });
  });

  it('sends no request when no transaction has events', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault })]);

    await h.client().getTransactionEvents(asInput(block.txs));

    expect(h.fake.count()).toBe(0);
  });

  it('pages a transaction with 250 events with event_offset, asking again only for that one', async () => {
    const h = await startHarness();
    const logs = Array.from({ length: 250 }, (_, i) => Cl.uint(i));
    const block = h.fake.chain.mine([contractCall({ contractId: vault, logs }), contractCall({ contractId: vault, logs: ['small'] })]);
    const [big] = block.txs;

    const events = await h.client().getTransactionEvents(asInput(block.txs));

    const calls = h.fake.requestsTo(ROUTES.txMultiple);
    expect(calls.map((r) => [r.query.get('event_offset'), r.query.getAll('tx_id').length])).toEqual([
      ['0', 2],
      ['100', 1],
      ['200', 1],
    ]);
    expect(calls.every((r) => r.query.get('event_limit') === '100')).toBe(true);
    expect(events.get(big!.txId)?.logs.map((log) => log.eventIndex)).toEqual([...Array(250).keys()]);
  });

  it('keeps only smart_contract_log events, with the contract that printed', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([
      contractCall({
        contractId: vault,
        logs: [{ printer: oracle, value: Cl.tuple({ price: Cl.uint(42) }) }],
        events: [ftTransferEvent(`${vault}::token`, fakeAddress('a'), fakeAddress('b'), 5)],
      }),
      transfer({ to: fakeAddress('b'), amount: 1 }),
    ]);

    const events = await h.client().getTransactionEvents(asInput(block.txs));

    expect(events.get(block.txs[0]!.txId)?.logs).toEqual([
      {
        eventIndex: 0,
        contractId: oracle,
        topic: 'print',
        valueHex: `0x${serializeCV(Cl.tuple({ price: Cl.uint(42) }))}`,
        valueRepr: '(tuple (price u42))',
      },
    ]);
    expect(events.get(block.txs[1]!.txId)?.logs).toEqual([]);
  });

  it('logs a warning, without asking again, when fewer events arrive than the transaction counts', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: vault, logs: ['a', 'b', 'c'] })]);
    const txId = block.txs[0]!.txId;
    h.fake.faults.once({
      transform: (body) => {
        (body as Record<string, { result: { events: unknown[] } }>)[txId]!.result.events.pop();
        return body;
      },
    });

    const events = await h.client().getTransactionEvents([{ txId, eventCount: 3 }]);

    expect(events.get(txId)?.logs).toHaveLength(2);
    expect(h.fake.count(ROUTES.txMultiple)).toBe(1);
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 'warn', attributes: { txId, eventCount: 3, received: 2 } }));
  });

  it('treats a transaction the API cannot find as an inconsistency to retry', async () => {
    const h = await startHarness();
    const missing = `0x${'ee'.repeat(32)}`;

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: missing, eventCount: 2 }]));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expect(error.message).toContain(missing);
  });
});
