// The balances of `balances` rules kept block by block (balance-tracker.ts, balance-reads.ts, balance-book.ts):
// locks and their end, reconciliation with the API at a bounded rate, rollbacks within and beyond the kept
// changes, a run that died between its balance write and its cursor write, and a rule changed in the config.
import { describe, expect, it } from 'vitest';
import type { Block, PrincipalBalances, Transaction, TxEvents } from '../../lambda/core/domain';
import { readDueBalances } from '../../lambda/core/stages/balance-reads';
import { BalanceTracker, RECONCILE_BLOCKS, type CompiledBalanceRule } from '../../lambda/core/stages/balance-tracker';
import { BALANCE_DELTA_BLOCKS } from '../../lambda/core/stages/balance-book';
import { balancesList } from '../../lambda/core/rules/balance-rules';
import type { ChainApi, OperatorNotice, Telemetry } from '../../lambda/core/ports';

const WALLET = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';

function tracker(below = 1_000n, above: bigint | null = null) {
  return new BalanceTracker(
    balancesList.compile({ balances: [{ address: WALLET, asset: 'stx', below: String(below), ...(above === null ? {} : { above: String(above) }) }] }).rules,
  );
}

/** An API that answers every balance read with `held()` and counts the reads. */
function api(held: () => Partial<PrincipalBalances>) {
  const reads: number[] = [];
  const chain = {
    getBalances: async (_principal: string, atHeight: number) => {
      reads.push(atHeight);
      return { stxTotal: 0n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map(), ...held() };
    },
  } as unknown as ChainApi;
  const notices: OperatorNotice[] = [];
  const logs: string[] = [];
  const telemetry: Telemetry = { log: (_level, message) => logs.push(message), metric: () => {} };
  return { reads, notices, logs, ports: { chain, telemetry, operator: { notify: async (n: OperatorNotice) => void notices.push(n) } } };
}

let counter = 0;
function tx(partial: Partial<Transaction> = {}): Transaction {
  counter += 1;
  return {
    txId: `0x${String(counter).padStart(64, '0')}`,
    txIndex: 0,
    txType: 'contract_call',
    txStatus: 'success',
    sender: 'SP000000000000000000002Q6VF78',
    eventCount: 1,
    fee: '0',
    ...partial,
  };
}
const block = (height: number, transactions: Transaction[] = [], burnHeight = 900_000): Block => ({
  header: { height, hash: `0xb${height}`, parentHash: `0xb${height - 1}`, time: height, txCount: transactions.length, burnHeight },
  transactions: transactions.map((t, i) => ({ ...t, txIndex: i })),
});

async function step(t: ReturnType<typeof tracker>, ports: ReturnType<typeof api>['ports'], b: Block, events: Map<string, TxEvents> = new Map()) {
  await readDueBalances(t, b, ports);
  return t.apply(b, events).map((c) => ({ crossed: c.crossed, balance: c.balance, previous: c.previous, txId: c.txId }));
}

describe('a balance rule on STX', () => {
  it('counts a stacking lock against the spendable balance, and the unlock at its Bitcoin height back', async () => {
    const t = tracker(1_000n);
    const { ports } = api(() => ({ stxTotal: 1_500n }));
    expect(await step(t, ports, block(1))).toEqual([]);
    const lock = tx();
    const locked = new Map([
      [lock.txId, { txId: lock.txId, logs: [], assets: [], locks: [{ eventIndex: 0, address: WALLET, amount: '600', unlockBurnHeight: 900_010 }] }],
    ]);
    expect(await step(t, ports, block(2, [lock]), locked)).toEqual([{ crossed: 'below', balance: 900n, previous: 1_500n, txId: lock.txId }]);
    expect(await step(t, ports, block(3, [], 900_009))).toEqual([]);
    // Unlocked: back above, no alert; a fee of 600 then crosses again.
    expect(await step(t, ports, block(4, [], 900_010))).toEqual([]);
    const fee = tx({ sender: WALLET, fee: '600' });
    expect(await step(t, ports, block(5, [fee]))).toEqual([{ crossed: 'below', balance: 900n, previous: 1_500n, txId: fee.txId }]);
  });

  it('debits the fee from the sponsor of a sponsored transaction, not its sender', async () => {
    const t = tracker(1_000n);
    const { ports } = api(() => ({ stxTotal: 1_100n }));
    await step(t, ports, block(1));
    expect(await step(t, ports, block(2, [tx({ sender: WALLET, sponsor: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9', fee: '500' })]))).toEqual([]);
    const sponsored = tx({ sponsor: WALLET, fee: '500' });
    expect(await step(t, ports, block(3, [sponsored]))).toEqual([{ crossed: 'below', balance: 600n, previous: 1_100n, txId: sponsored.txId }]);
  });

  it('debits the fee of a failed transaction, whose transfer moves nothing', async () => {
    const t = tracker(1_000n);
    const { ports } = api(() => ({ stxTotal: 1_100n }));
    await step(t, ports, block(1));
    const failed = tx({
      sender: WALLET,
      txType: 'token_transfer',
      txStatus: 'abort_by_response',
      fee: '300',
      tokenTransfer: { recipient: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9', amount: '50', memo: '0x' },
    });
    expect(await step(t, ports, block(2, [failed]))).toEqual([{ crossed: 'below', balance: 800n, previous: 1_100n, txId: failed.txId }]);
  });

  it('counts the STX a native transfer carries beyond its own transfer (the genesis mints), and its own once', async () => {
    const t = tracker(1_000n, 2_000n);
    const { ports } = api(() => ({ stxTotal: 1_500n }));
    await step(t, ports, block(1));
    const other = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
    const genesis = tx({ txType: 'token_transfer', sender: other, eventCount: 3, tokenTransfer: { recipient: other, amount: '5', memo: '0x' } });
    const stx = (eventIndex: number, sender: string | null, recipient: string | null, amount: string) => ({
      eventIndex,
      asset: 'stx' as const,
      action: sender === null ? ('mint' as const) : ('transfer' as const),
      sender,
      recipient,
      amount,
      memo: null,
    });
    const assets = [stx(0, other, other, '5'), stx(1, null, WALLET, '300'), stx(2, null, WALLET, '400')];
    const events = new Map([[genesis.txId, { txId: genesis.txId, logs: [], assets, locks: [] }]]);
    expect(await step(t, ports, block(2, [genesis]), events)).toEqual([{ crossed: 'above', balance: 2_200n, previous: 1_500n, txId: genesis.txId }]);
    // The transfer's own event is the transaction itself: counted from the list, never twice.
    const own = tx({ txType: 'token_transfer', sender: other, eventCount: 1, tokenTransfer: { recipient: WALLET, amount: '100', memo: '0x' } });
    const ownEvents = new Map([[own.txId, { txId: own.txId, logs: [], assets: [stx(0, other, WALLET, '100')], locks: [] }]]);
    await step(t, ports, block(3, [own]), ownEvents);
    expect(t.entry(t.rules[0]!)?.balance).toBe('2300');
  });

  it('reads the API again only every RECONCILE_BLOCKS blocks; a difference is corrected, logged and told once', async () => {
    const t = tracker(1_000n);
    let total = 5_000n;
    const { ports, reads, notices, logs } = api(() => ({ stxTotal: total }));
    for (let h = 1; h <= RECONCILE_BLOCKS; h += 1) await step(t, ports, block(h));
    expect(reads).toEqual([0]);
    // A movement the blocks did not show (a miner reward, say): the next reconciliation finds it.
    total = 500n;
    const found = await step(t, ports, block(RECONCILE_BLOCKS + 1));
    expect(reads).toEqual([0, RECONCILE_BLOCKS]);
    expect(found).toEqual([{ crossed: 'below', balance: 500n, previous: 5_000n, txId: null }]);
    expect(notices.map((n) => n.kind)).toEqual(['balance-mismatch']);
    expect(logs.join('\n')).toContain('kept 5000 (locked 0), the API says 500');
    for (let h = RECONCILE_BLOCKS + 2; h <= RECONCILE_BLOCKS + 10; h += 1) await step(t, ports, block(h));
    expect(notices).toHaveLength(1);
  });
});

describe('the balance book', () => {
  const rule = (t: ReturnType<typeof tracker>): CompiledBalanceRule => t.rules[0]!;

  it('is restored exactly by a rollback within the kept changes, without a read', async () => {
    const t = tracker(1_000n);
    const { ports, reads } = api(() => ({ stxTotal: 1_200n }));
    await step(t, ports, block(1));
    const crossing = tx({ sender: WALLET, fee: '300' });
    await step(t, ports, block(2, [crossing]));
    t.rollBack(1);
    expect(t.entry(rule(t))).toMatchObject({ balance: '1200', zone: 'normal' });
    // The same crossing on the new chain alerts again (its key is the same, so the delivery finds it sent).
    expect(await step(t, ports, block(2, [crossing]))).toEqual([{ crossed: 'below', balance: 900n, previous: 1_200n, txId: crossing.txId }]);
    expect(reads).toEqual([0]);
  });

  it('rereads after a rollback deeper than the kept changes, keeping the side it was on (no second alert)', async () => {
    const t = tracker(1_000n);
    const { ports, reads } = api(() => ({ stxTotal: 900n }));
    expect(await step(t, ports, block(1))).toEqual([{ crossed: 'below', balance: 900n, previous: null, txId: null }]);
    for (let h = 2; h <= BALANCE_DELTA_BLOCKS + 20; h += 1) await step(t, ports, block(h, [tx({ sender: WALLET, fee: '1' })]));
    t.takeRecord(BALANCE_DELTA_BLOCKS + 19);
    t.rollBack(5);
    expect(t.entry(rule(t))?.stale).toBe(true);
    expect(await step(t, ports, block(6))).toEqual([]);
    expect(reads).toEqual([0, 5]);
  });

  it('stays bounded: changes older than BALANCE_DELTA_BLOCKS are folded into its base', async () => {
    const t = tracker(10n);
    const { ports } = api(() => ({ stxTotal: 1_000_000n }));
    for (let h = 1; h <= 3 * BALANCE_DELTA_BLOCKS; h += 1) await step(t, ports, block(h, [tx({ sender: WALLET, fee: '1' })]));
    const book = t.takeRecord(3 * BALANCE_DELTA_BLOCKS)!;
    expect(book.deltas).toHaveLength(BALANCE_DELTA_BLOCKS);
    expect(book.base.height).toBe(2 * BALANCE_DELTA_BLOCKS);
  });

  it('drops, when loaded, what a run wrote past the cursor it never wrote (it died in between)', async () => {
    const t = tracker(1_000n);
    const { ports } = api(() => ({ stxTotal: 1_200n }));
    await step(t, ports, block(1));
    await step(t, ports, block(2, [tx({ sender: WALLET, fee: '300' })]));
    const book = t.takeRecord(2)!;

    const next = tracker(1_000n);
    next.load(book, 1);
    expect(next.entry(rule(next))).toMatchObject({ balance: '1200', zone: 'normal' });
  });

  it('rereads a rule whose thresholds changed in the config, as a first check', async () => {
    const t = tracker(1_000n);
    const { ports, reads } = api(() => ({ stxTotal: 1_200n }));
    await step(t, ports, block(1));
    const changed = tracker(2_000n);
    changed.load(t.takeRecord(1), 1);
    expect(await step(changed, ports, block(2))).toEqual([{ crossed: 'below', balance: 1_200n, previous: null, txId: null }]);
    expect(reads).toEqual([0, 1]);
  });
});
