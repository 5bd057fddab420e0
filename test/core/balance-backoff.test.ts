// A balance that cannot be rebuilt from its changes (more than the read's bound since the block, a stacking
// call since it, a route the API lacks) is not asked again every run: its read waits for the blocks the failed
// read walked down to, then 10, 20, 40 … blocks, at most 720, remembered in the balance book; the operator
// hears of it once; a rule changed in the config is read at once; while it waits the rule alerts nothing.
import { describe, expect, it } from 'vitest';
import { BalanceUnavailableError, type Block, type PrincipalBalances, type Transaction } from '../../lambda/core/domain';
import { BalanceReads } from '../../lambda/core/stages/balance-reads';
import { RETRY_FIRST_BLOCKS, RETRY_MAX_BLOCKS, retryAfter } from '../../lambda/core/stages/balance-retry';
import { BalanceTracker } from '../../lambda/core/stages/balance-tracker';
import { balancesList } from '../../lambda/core/rules/balance-rules';
import type { BalanceBookRecord } from '../../lambda/core/stages/balance-book';
import type { ChainApi, OperatorNotice, Telemetry } from '../../lambda/core/ports';
import { fakeAddress } from '../support/fake-hiro';

const busy = fakeAddress('backoff-busy');
const calm = fakeAddress('backoff-calm');

function tracker(below: Record<string, bigint>) {
  const balances = Object.entries(below).map(([address, threshold]) => ({ address, asset: 'stx', below: String(threshold) }));
  return new BalanceTracker(balancesList.compile({ balances }).rules);
}

const block = (height: number, transactions: Transaction[] = []): Block => ({
  header: { height, hash: `0xb${height}`, parentHash: `0xb${height - 1}`, time: height, txCount: transactions.length, burnHeight: 900_000 },
  transactions,
});

const fee = (sender: string, amount: number): Transaction => ({
  txId: `0x${String(amount).padStart(64, '0')}`,
  txIndex: 0,
  txType: 'contract_call',
  txStatus: 'success',
  sender,
  eventCount: 0,
  fee: String(amount),
});

/**
 * An API on which `busy`'s balance at block `at` cannot be rebuilt while `at` is below `fitsFrom`: its failed read
 * walked down to `at + 5` (or `first` the first time). `calm` always reads.
 */
function api(fitsFrom: number, first: number, held = 2_000n) {
  const reads: { address: string; at: number }[] = [];
  const chain = {
    getBalances: async (address: string, at: number): Promise<PrincipalBalances> => {
      reads.push({ address, at });
      if (address === busy && at < fitsFrom) {
        const walkedTo = reads.filter((r) => r.address === busy).length === 1 ? first : at + 5;
        throw new BalanceUnavailableError(`more than 1000 transactions since block ${at}`, { retryFrom: walkedTo, requests: 23 });
      }
      return { stxTotal: held, stxLocked: 0n, unlockBurnHeight: null, fts: new Map(), requests: 3 };
    },
  } as unknown as ChainApi;
  const logs: string[] = [];
  const telemetry: Telemetry = { log: (_level, message) => logs.push(message), metric: () => {} };
  const notices: OperatorNotice[] = [];
  return { reads, logs, notices, ports: { chain, telemetry, operator: { notify: async (n: OperatorNotice) => void notices.push(n) } } };
}

/** Runs of one block each from `from` to `to`, each a fresh tracker loaded from the stored book, as each run loads it. */
async function runs(
  below: Record<string, bigint>,
  ports: ReturnType<typeof api>['ports'],
  from: number,
  to: number,
  book: BalanceBookRecord | null = null,
  txs: (height: number) => Transaction[] = () => [],
) {
  const alerts: { height: number; address: string; cause: string }[] = [];
  let stored = book;
  for (let height = from; height <= to; height += 1) {
    const t = tracker(below);
    t.load(stored, height - 1);
    await new BalanceReads(t, ports).before(block(height));
    for (const c of t.apply(block(height, txs(height)), new Map())) alerts.push({ height, address: c.rule.address, cause: c.cause });
    stored = t.takeRecord(height) ?? stored;
  }
  return { book: stored, alerts };
}

describe('the retry schedule of a balance that cannot be rebuilt', () => {
  it('waits 10, 20, 40 … blocks after each failed try in a row, at most 720, and never before the blocks the failed read walked down to', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((tries) => retryAfter(1_000, tries) - 1_000);
    expect(waits).toEqual([10, 20, 40, 80, 160, 320, 640, 720, 720]);
    expect(RETRY_FIRST_BLOCKS).toBe(10);
    expect(RETRY_MAX_BLOCKS).toBe(720);
    expect(retryAfter(1_000, 1, 1_400)).toBe(1_400);
    expect(retryAfter(1_000, 3, 1_005)).toBe(1_040);
  });
});

describe('a balance past the bound of a rebuilt read', () => {
  it('is tried again only once the scan reaches the blocks its failed read walked down to, then after 10, 20, 40 … blocks, not every run', async () => {
    const { ports, reads } = api(170, 40);
    await runs({ [busy]: 1_000n, [calm]: 1_000n }, ports, 11, 200);
    // At 10 it walked down to block 40: a read before 40 would walk the same thousand changes and fail again.
    expect(reads.filter((r) => r.address === busy).map((r) => r.at)).toEqual([10, 40, 60, 100, 180]);
    expect(reads.filter((r) => r.address === calm).map((r) => r.at)).toEqual([10]);
  });

  it('tells the operator once, naming the cause and the block of the next try, and logs each failed try, not each run', async () => {
    const { ports, notices, logs } = api(170, 40);
    await runs({ [busy]: 1_000n }, ports, 11, 200);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'balance-unread' });
    expect(notices[0]!.message).toContain(busy);
    expect(notices[0]!.message).toContain('more than 1000 transactions since block 10');
    expect(notices[0]!.message).toContain('tried again at block 40');
    expect(logs.filter((l) => l.includes(`could not read the balance of ${busy}`))).toHaveLength(4);
  });

  it('keeps the schedule in the balance book, so a new process does not try before it either', async () => {
    const { ports, reads } = api(1_000, 40);
    const { book } = await runs({ [busy]: 1_000n }, ports, 11, 20);
    expect(Object.values(JSON.parse(JSON.stringify(book)).unread)).toEqual([
      { failures: 1, cause: 'more than 1000 transactions since block 10', retryAt: 40, tries: 1 },
    ]);
    await runs({ [busy]: 1_000n }, ports, 21, 40, book);
    expect(reads.map((r) => r.at)).toEqual([10]);
  });

  it('is read at once when its rule changes in the config', async () => {
    const { ports, reads } = api(0, 400);
    // The first reads fail until block 400; the rule then changes (another threshold) at block 31.
    const failing = api(1_000, 400);
    const { book } = await runs({ [busy]: 1_000n }, failing.ports, 11, 30);
    expect(failing.reads.map((r) => r.at)).toEqual([10]);
    await runs({ [busy]: 5_000n }, ports, 31, 33, book);
    expect(reads.map((r) => r.at)).toEqual([30]);
  });

  it('alerts nothing while it waits, whatever the blocks move, and once read alerts a balance already past the threshold once, as a first check', async () => {
    const { ports } = api(100, 100, 500n);
    const { alerts } = await runs({ [busy]: 1_000n }, ports, 11, 130, null, (height) => (height % 7 === 0 ? [fee(busy, height)] : []));
    expect(alerts).toEqual([{ height: 101, address: busy, cause: 'read:100' }]);
  });

  it("charges the failed read's requests to the run's share of balance reads", async () => {
    const { ports } = api(1_000, 40);
    const allowance = { left: 30 };
    const t = tracker({ [busy]: 1_000n });
    await new BalanceReads(t, ports, allowance).before(block(11));
    expect(allowance.left).toBe(7);
  });

  it('keeps a tracking rule alerting from its kept balance when its reconciliation cannot be rebuilt, and says so, the reconciliation on the same schedule', async () => {
    const reads: number[] = [];
    const logs: string[] = [];
    const notices: OperatorNotice[] = [];
    const chain = {
      getBalances: async (_address: string, at: number): Promise<PrincipalBalances> => {
        reads.push(at);
        if (at > 10) throw new BalanceUnavailableError(`more than 1000 transactions since block ${at}`, { retryFrom: at + 1, requests: 23 });
        return { stxTotal: 2_000n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map(), requests: 3 };
      },
    } as unknown as ChainApi;
    const ports = {
      chain,
      telemetry: { log: (_level: string, message: string) => void logs.push(message), metric: () => {} } as Telemetry,
      operator: { notify: async (n: OperatorNotice) => void notices.push(n) },
    };
    // Read at 10; due a reconciliation at 730, which fails; a fee at 735 takes it below 1,000.
    const { alerts } = await runs({ [busy]: 1_000n }, ports, 11, 760, null, (height) => (height === 735 ? [fee(busy, 1_500)] : []));
    expect(reads).toEqual([10, 730, 740]);
    expect(alerts).toEqual([{ height: 735, address: busy, cause: expect.stringMatching(/^0x/) }]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain('keep alerting from the balance kept from the blocks');
    expect(logs.find((l) => l.includes(`could not read the balance of ${busy} at block 730`))).toContain('keep alerting from the balance kept from the blocks');
  });
});
