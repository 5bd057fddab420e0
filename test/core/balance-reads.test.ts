// The balance reads before a block (balance-reads.ts): settled together, so two failures leave no unhandled
// rejection; a failed read holds back no other rule; a run reads at most its allowance and the rest wait for
// the next runs, each rule starting exactly at the block its read was made at.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BalanceUnavailableError, type Block, type PrincipalBalances, type Transaction } from '../../lambda/core/domain';
import { BalanceReads, readDueBalances } from '../../lambda/core/stages/balance-reads';
import { BalanceTracker } from '../../lambda/core/stages/balance-tracker';
import { balancesList } from '../../lambda/core/rules/balance-rules';
import type { ChainApi, OperatorNotice, Telemetry } from '../../lambda/core/ports';
import { ApiBackoffError } from '../../lambda/core/follow/api-backoff';
import { fakeAddress } from '../support/fake-hiro';

const wallets = ['a', 'b', 'c', 'd', 'e'].map((label) => fakeAddress(`reads-${label}`));

function tracker(addresses: readonly string[], below = 1_000n) {
  return new BalanceTracker(balancesList.compile({ balances: addresses.map((address) => ({ address, asset: 'stx', below: String(below) })) }).rules);
}

/** An API whose balance read of an address answers `held(address)`, or fails when it throws. */
function api(held: (address: string) => bigint) {
  const reads: { address: string; at: number }[] = [];
  const chain = {
    getBalances: async (address: string, at: number): Promise<PrincipalBalances> => {
      reads.push({ address, at });
      await new Promise((resolve) => setImmediate(resolve));
      return { stxTotal: held(address), stxLocked: 0n, unlockBurnHeight: null, fts: new Map() };
    },
  } as unknown as ChainApi;
  const logs: string[] = [];
  const telemetry: Telemetry = { log: (_level, message) => logs.push(message), metric: () => {} };
  return { reads, logs, ports: { chain, telemetry } };
}

let counter = 0;
function fee(sender: string, amount: number): Transaction {
  counter += 1;
  return {
    txId: `0x${String(counter).padStart(64, '0')}`,
    txIndex: 0,
    txType: 'contract_call',
    txStatus: 'success',
    sender,
    eventCount: 0,
    fee: String(amount),
  };
}
const block = (height: number, transactions: Transaction[] = []): Block => ({
  header: { height, hash: `0xb${height}`, parentHash: `0xb${height - 1}`, time: height, txCount: transactions.length, burnHeight: 900_000 },
  transactions: transactions.map((t, i) => ({ ...t, txIndex: i })),
});
const crossings = (t: ReturnType<typeof tracker>, b: Block) =>
  t.apply(b, new Map()).map((c) => ({ address: c.rule.address, balance: c.balance, previous: c.previous, cause: c.cause }));

describe('parallel balance reads', () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', listener);
  });
  afterEach(() => {
    process.off('unhandledRejection', listener);
  });

  it('leaves no unhandled rejection when two reads fail, and fails with the first once all have settled', async () => {
    const t = tracker(wallets.slice(0, 3));
    const { ports, reads } = api((address) => {
      if (address !== wallets[1]) throw new Error(`no balance for ${address}`);
      return 5_000n;
    });
    await expect(readDueBalances(t, block(10), ports)).rejects.toThrow(`no balance for ${wallets[0]}`);
    expect(reads).toHaveLength(3);
    // Two turns of the event loop: time for Node to report a rejection nobody handled.
    for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});

describe("a run's balance reads", () => {
  it('holds back no other rule when one read fails: the others start, the failed one waits for the next run', async () => {
    const t = tracker(wallets.slice(0, 2));
    let broken = true;
    const { ports, reads, logs } = api((address) => {
      if (address === wallets[0] && broken) throw new Error('500 from the API');
      return 1_200n;
    });
    const run1 = new BalanceReads(t, ports);
    expect((await run1.before(block(10))).map((f) => f.address)).toEqual([wallets[0]]);
    // The waiting rule's movements are not counted (no crash on its missing balance); the started one crosses.
    expect(crossings(t, block(10, [fee(wallets[0]!, 300), fee(wallets[1]!, 300)]))).toEqual([
      { address: wallets[1], balance: 900n, previous: 1_200n, cause: expect.stringMatching(/^0x/) },
    ]);
    // Not asked again in the same run.
    await run1.before(block(11));
    t.apply(block(11), new Map());
    expect(reads.filter((r) => r.address === wallets[0])).toHaveLength(1);
    expect(logs.join('\n')).toContain(`could not read the balance of ${wallets[0]} at block 9`);

    broken = false;
    await new BalanceReads(t, ports).before(block(12));
    // Started at block 11: the fee of block 10 was before its read, the fee of block 12 counts.
    expect(crossings(t, block(12, [fee(wallets[0]!, 300)]))).toEqual([
      { address: wallets[0], balance: 900n, previous: 1_200n, cause: expect.stringMatching(/^0x/) },
    ]);
  });

  it('reads at most its allowance, the first rules first; the rest start in the next runs, each at the block its read was made at', async () => {
    const t = tracker(wallets, 1_000n);
    const { ports, reads, logs } = api(() => 900n);
    const run1 = new BalanceReads(t, ports, { left: 2 });
    await run1.before(block(10));
    expect(crossings(t, block(10))).toEqual(wallets.slice(0, 2).map((address) => ({ address, balance: 900n, previous: null, cause: 'read:9' })));
    await run1.before(block(11));
    expect(crossings(t, block(11))).toEqual([]);
    expect(reads).toHaveLength(2);
    expect(logs.join('\n')).toContain("3 balance rules due a read at block 9 wait for a later run: this run's share of the request budget");

    const run2 = new BalanceReads(t, ports, { left: 2 });
    await run2.before(block(12));
    expect(crossings(t, block(12))).toEqual(wallets.slice(2, 4).map((address) => ({ address, balance: 900n, previous: null, cause: 'read:11' })));
    await new BalanceReads(t, ports, { left: 2 }).before(block(13));
    expect(crossings(t, block(13))).toEqual([{ address: wallets[4], balance: 900n, previous: null, cause: 'read:12' }]);
    expect(reads.map((r) => r.at)).toEqual([9, 9, 11, 11, 12]);
  });

  it("tells the operator when a rule's read keeps failing, at the 3rd run in a row and as the count doubles, the count kept with the book", async () => {
    let t = tracker(wallets.slice(0, 2));
    const { ports } = api((address) => {
      if (address === wallets[0]) throw new Error('410 Gone: the balance route is retired');
      return 2_000n;
    });
    const notices: OperatorNotice[] = [];
    const operator = { notify: async (n: OperatorNotice) => void notices.push(n) };
    const counts: number[] = [];
    for (let run = 1; run <= 6; run += 1) {
      await new BalanceReads(t, { ...ports, operator }).before(block(10 + run));
      t.apply(block(10 + run), new Map());
      // Each run a fresh tracker from the stored book, as each run loads it.
      const book = t.takeRecord(10 + run);
      t = tracker(wallets.slice(0, 2));
      t.load(book, 10 + run);
      counts.push(notices.length);
    }
    expect(counts).toEqual([0, 0, 1, 1, 1, 2]);
    expect(notices[0]).toMatchObject({ kind: 'balance-unread', subject: expect.stringContaining('3 runs') });
    expect(notices[0]!.message).toContain(wallets[0]);
    expect(notices[0]!.message).toContain('410 Gone: the balance route is retired');
  });

  it('tells the operator once, at the first run, when a balance cannot be established (a lasting cause), not as the runs go by', async () => {
    let t = tracker(wallets.slice(0, 2));
    const { ports } = api((address) => {
      if (address === wallets[0]) throw new BalanceUnavailableError('the API has no GET /extended/v3/principals/{principal}/transactions');
      return 2_000n;
    });
    const notices: OperatorNotice[] = [];
    const operator = { notify: async (n: OperatorNotice) => void notices.push(n) };
    const counts: number[] = [];
    let book: ReturnType<typeof t.takeRecord> = null;
    // Blocks 11 to 170: the read is tried at 10, 20, 40, 80 and 160.
    for (let height = 11; height <= 170; height += 1) {
      await new BalanceReads(t, { ...ports, operator }).before(block(height));
      t.apply(block(height), new Map());
      // A run that changed nothing writes nothing: the stored book stays.
      book = t.takeRecord(height) ?? book;
      t = tracker(wallets.slice(0, 2));
      t.load(book, height);
      counts.push(notices.length);
    }
    expect(new Set(counts)).toEqual(new Set([1]));
    expect(notices[0]).toMatchObject({ kind: 'balance-unread', subject: expect.stringContaining('(1 run)') });
    expect(notices[0]!.message).toContain('This run could not read the balance of');
    expect(notices[0]!.message).toContain('/extended/v3/principals/{principal}/transactions');
    expect(notices[0]!.message).toContain('tried again at block 20');
  });

  it("charges a read that took several requests (a balance rebuilt from its changes) to the run's share, and sizes the next reads by it", async () => {
    const t = tracker(wallets);
    const reads: string[] = [];
    const chain = {
      getBalances: async (address: string): Promise<PrincipalBalances> => {
        reads.push(address);
        return { stxTotal: 5_000n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map(), requests: 3 };
      },
    } as unknown as ChainApi;
    const allowance = { left: 10 };
    await new BalanceReads(t, { chain, telemetry: { log: () => {}, metric: () => {} } }, allowance).before(block(10));
    // Ten requests: the first read alone tells it costs three, then two more fit; the others wait.
    expect(reads).toEqual(wallets.slice(0, 3));
    expect(allowance.left).toBe(1);
  });

  it('reads every due address together when all fit even at the rebuilt cost', async () => {
    const t = tracker(wallets.slice(0, 3));
    const { ports, reads } = api(() => 5_000n);
    const allowance = { left: 9 };
    // Each read looks, once it has yielded, how many reads have started: together, the first sees all three.
    let started = 0;
    const seen: number[] = [];
    const chain = {
      getBalances: async (address: string, at: number) => {
        started += 1;
        const read = await ports.chain.getBalances!(address, at);
        seen.push(started);
        return read;
      },
    } as unknown as ChainApi;
    await new BalanceReads(t, { ...ports, chain }, allowance).before(block(10));
    expect(reads).toHaveLength(3);
    expect(seen).toEqual([3, 3, 3]);
    expect(allowance.left).toBe(6);
  });

  it('reads the rules not started before the reconciliations due, and those the most overdue first', async () => {
    const t = tracker(wallets.slice(0, 3));
    const { ports } = api(() => 5_000n);
    await new BalanceReads(t, ports, { left: 1 }).before(block(10)); // a, the first in config order, read at 9
    t.apply(block(10), new Map());
    await new BalanceReads(t, ports, { left: 1 }).before(block(20)); // b, read at 19
    t.apply(block(20), new Map());
    // Long after: a and b are both due a reconciliation, c has never been read.
    expect(t.due(10_000).map((rule) => rule.address)).toEqual([wallets[2], wallets[0], wallets[1]]);
  });

  it('stops reading for the run when the API asks to wait longer than the run has, and leaves the rules due', async () => {
    const t = tracker(wallets.slice(0, 2));
    const { ports } = api((address) => {
      if (address === wallets[0]) throw new ApiBackoffError(60_000, 5_000);
      return 2_000n;
    });
    const run = new BalanceReads(t, ports, { left: 10 });
    await run.before(block(10));
    t.apply(block(10), new Map());
    expect(t.tracking(t.rules[0]!)).toBe(false);
    expect(t.tracking(t.rules[1]!)).toBe(true);
    expect(await run.before(block(11))).toEqual([]);
    expect(t.due(10).map((rule) => rule.address)).toEqual([wallets[0]]);
  });
});
