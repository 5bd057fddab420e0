// Emily polled by the runs, end to end: the real cycle against the fake Hiro API and the fake Emily over HTTP,
// deposits with generated fates (on time, late, never, reclaimable, failed, replaced, minted across a reorg).
// Every deposit deadline goes out once, at the Bitcoin block it is due, none for the deposit minted on time, none
// again after a crash; and Emily is asked at most twice a run in the common case.
import { describe, expect, it, type TestContext } from 'vitest';
import { CrashSwitch, crashingState, InjectedCrash } from '../support/crash-points';
import { hexId } from '../support/fake-emily';
import type { FaultOverride } from '../support/fake-hiro';
import { completedDepositTx, rejectPrintTx, startSbtcWorld, type SbtcWorld } from '../support/sbtc-world';

/** The test's own world (its fake Hiro, its fake Emily), closed when the test ends. */
async function worldOfTest(onFinished: TestContext['onTestFinished'], options: Parameters<typeof startSbtcWorld>[0] = {}): Promise<SbtcWorld> {
  const world = await startSbtcWorld(options);
  onFinished(() => world.close());
  return world;
}

const key = (situation: string, deposit: { bitcoinTxid: string }) => `sbtc:${situation}:${deposit.bitcoinTxid}:0`;

describe('Emily polled by the runs', () => {
  it('alerts each deposit deadline once at the Bitcoin block it is due, and nothing for the deposit minted on time', async ({ onTestFinished }) => {
    const w = await worldOfTest(onTestFinished);
    const ontime = w.deposit('on-time');
    const late = w.deposit('late');
    const never = w.deposit('never');
    const reclaim = w.deposit('reclaim', { parameters: { maxFee: 80_000, lockTime: 7 }, reclaimScript: '57b275ac' });
    const failed = w.deposit('failed');
    const replaced = w.deposit('replaced');
    const reorged = w.deposit('reorged');
    const b0 = w.bitcoinHeight;
    // Each deposit is first seen pending at b0: its clock starts at b0 + 1, so late at b0 + 4, critical at b0 + 7.
    const sentAt = new Map<string, number>();
    const runTwice = async () => {
      const runs = [await w.run(), (w.hiro.chain.mine([]), await w.run())];
      for (const k of w.sbtcKeys()) if (!sentAt.has(k)) sentAt.set(k, w.bitcoinHeight - b0);
      return runs.map((r) => r.emilyRequests);
    };
    await runTwice();

    w.bitcoinBlock();
    for (const d of [ontime, late, never, reclaim, reorged]) w.setStatus(d, 'accepted');
    w.setStatus(replaced, 'rbf', { replacedByTx: hexId('replacement') });
    await runTwice();

    w.bitcoinBlock([completedDepositTx(ontime, b0 + 2)]);
    w.setStatus(ontime, 'confirmed');
    w.setStatus(failed, 'failed');
    await runTwice();

    // The mint of `reorged` lands at b0 + 3, then a reorg takes its block (and the one after) away: the clock runs on.
    w.bitcoinBlock([completedDepositTx(reorged, b0 + 3)]);
    await runTwice();
    w.hiro.chain.reorg(2, [[], []]);
    await runTwice();

    for (let step = 4; step <= 8; step++) {
      w.bitcoinBlock(step === 5 ? [completedDepositTx(late, b0 + 5), completedDepositTx(reorged, b0 + 5)] : []);
      if (step === 5) for (const d of [late, reorged]) w.setStatus(d, 'confirmed');
      await runTwice();
    }

    expect(Object.fromEntries(sentAt)).toEqual({
      [key('deposit_replaced', replaced)]: 1,
      [key('deposit_failed', failed)]: 2,
      [key('deposit_late:warning', late)]: 4,
      [key('deposit_late:warning', never)]: 4,
      [key('deposit_late:warning', reclaim)]: 4,
      [key('deposit_late:warning', reorged)]: 4,
      [key('deposit_reclaimable:reclaim', reclaim)]: 5,
      [key('deposit_late:critical', never)]: 7,
      [key('deposit_late:critical', reclaim)]: 7,
    });
    // Each once: no key published twice.
    expect(w.sbtcKeys()).toHaveLength(new Set(w.sbtcKeys()).size);
    expect(w.sbtcKeys().some((k) => k.includes(ontime.bitcoinTxid))).toBe(false);
  }, 60_000);

  it('asks Emily at most twice a run once started: the open lists at a new Bitcoin block, the limits in the next run, nothing in the others', async ({
    onTestFinished,
  }) => {
    const w = await worldOfTest(onTestFinished);
    w.deposit('open');
    const first = await w.run();
    // The first run also lists the open withdrawals (requested before the watcher started): once.
    expect(first.emilyRequests).toBe(4);
    const counts: number[] = [];
    for (let block = 0; block < 3; block++) {
      w.bitcoinBlock();
      counts.push((await w.run()).emilyRequests);
      for (let i = 0; i < 3; i++) {
        w.hiro.chain.mine([]);
        counts.push((await w.run()).emilyRequests);
      }
    }
    expect(counts).toEqual([2, 1, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0]);
    expect(w.emily.requests.slice(4, 7).map((r) => r.url.replace(/&pageSize=\d+/, ''))).toEqual([
      '/deposit?status=pending',
      '/deposit?status=accepted',
      '/limits',
    ]);
  }, 30_000);

  it('sends a deadline alert once when the run that sent it crashed before moving its cursor', async ({ onTestFinished }) => {
    const w = await worldOfTest(onTestFinished);
    const never = w.deposit('never');
    await w.run();
    for (let step = 1; step <= 3; step++) {
      w.bitcoinBlock();
      await w.run();
    }
    w.bitcoinBlock();
    const crash = new CrashSwitch('before moving the cursor', 1);
    await expect(w.run((state) => crashingState(state, crash))).rejects.toBeInstanceOf(InjectedCrash);
    expect(w.sbtcKeys()).toEqual([key('deposit_late:warning', never)]);
    await w.run();
    w.hiro.chain.mine([]);
    await w.run();
    expect(w.sbtcKeys()).toEqual([key('deposit_late:warning', never)]);
  }, 30_000);
});

/** Emily's deposit records, in a list or alone, changed by `change`. */
const deposits = (change: (d: Record<string, unknown>) => void) => (body: unknown) => {
  const b = body as { deposits?: Record<string, unknown>[] } & Record<string, unknown>;
  for (const d of b.deposits ?? (b.bitcoinTxid ? [b] : [])) change(d);
  return b;
};
const isDeposit = (path: string) => path.startsWith('/deposit');

/** Fifty megabytes of JSON, made once, as bytes: a string would be encoded again at each answer, a second's stall of the worker. */
const HUGE = Buffer.from(`{"deposits":[${'"x",'.repeat(12_500_000)}"x"]}`);

const FAULTS: { name: string; cause: RegExp; fault: (path: string) => FaultOverride | undefined; timeoutMs?: number }[] = [
  { name: 'down (connections dropped)', cause: /could not be reached/, fault: () => ({ hangUp: true }) },
  { name: 'slow (past the timeout)', cause: /no answer within 1000 ms/, fault: () => ({ delayMs: 2_500 }) },
  { name: 'answering 500', cause: /answered 500/, fault: () => ({ status: 500 }) },
  {
    name: 'answering an HTML page',
    cause: /not what Emily's spec gives|not JSON/,
    fault: () => ({ status: 200, body: '<html><title>Bad gateway</title></html>' }),
  },
  { name: 'answering 50 MB', cause: /past the 2097152-byte bound/, fault: () => ({ status: 200, body: HUGE }), timeoutMs: 15_000 },
  {
    name: 'sending a deposit with a malformed txid',
    cause: /bitcoinTxid: expected a Bitcoin txid/,
    fault: (path) => (isDeposit(path) ? { transform: deposits((d) => void (d.bitcoinTxid = 'not-a-txid')) } : undefined),
  },
  {
    name: 'sending an amount that is not a number',
    cause: /amount/,
    fault: (path) => (isDeposit(path) ? { transform: deposits((d) => void (d.amount = 'lots')) } : undefined),
  },
  {
    name: 'sending a status it does not know',
    cause: /status/,
    fault: (path) => (isDeposit(path) ? { transform: deposits((d) => void (d.status = 'stuck')) } : undefined),
  },
];

// Each fault its own world, side by side: the slow Emily's timeouts are waited out beside the others.
describe.concurrent('Emily failing, while the runs go on', () => {
  it.for(FAULTS)(
    'Emily $name: the Stacks side is watched as before, the operator is told once with the cause and once when it recovers, nothing changes',
    { timeout: 30_000 },
    async ({ cause, fault, timeoutMs }, { expect, onTestFinished }) => {
      const w = await worldOfTest(onTestFinished, timeoutMs ? { emilyTimeoutMs: timeoutMs } : {});
      const failing = w.deposit('failing');
      await w.run();
      const tracked = async () => (await w.state.readRecord('sbtcLifecycle'))?.deposits;
      const before = await tracked();
      expect(Object.keys(before as object)).toEqual([`${failing.bitcoinTxid}:0`]);

      // Emily's record moves on (the deposit failed), but what Emily answers cannot be read.
      w.setStatus(failing, 'failed');
      const stop = w.emily.faults.use((request) => fault(request.path));
      w.bitcoinBlock([rejectPrintTx()]);
      const broken = await w.run();
      w.hiro.chain.mine([]);
      await w.run();
      expect(broken.summary.cursor?.height).toBe(w.hiro.chain.height - 1);
      expect(w.publisher.sent.map((a) => a.alert.type)).toEqual(['contract_log']);
      const told = () => w.operator.notices.filter((n) => n.kind === 'sbtc-emily');
      expect(told()).toHaveLength(1);
      expect(told()[0]!.subject).toBe('stacks-watch: Emily (sBTC) is failing');
      expect(told()[0]!.message).toMatch(cause);
      expect(await tracked()).toEqual(before);

      stop();
      w.bitcoinBlock();
      await w.run();
      expect(told().map((n) => n.subject)).toEqual(['stacks-watch: Emily (sBTC) is failing', 'stacks-watch: Emily (sBTC) answers again']);
      // Told from Emily's good answer, not from the bad one.
      expect(w.sbtcKeys()).toEqual([key('deposit_failed', failing)]);
    },
  );
});
