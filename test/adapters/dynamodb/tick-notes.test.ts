// The schedule's notes for the loop's turns on the cursor item (watch-point-record.ts): the watch config version
// the store gave the tick and whether an SMS digest is owed. A queued turn reads them with its one read; the
// cursor write, an update of its own attributes, keeps them; the tick rewrites them only when one changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../../lambda/adapters/dynamodb';
import { runCycle } from '../../../lambda/core/cycle';
import { takeQueuedTurn, tokenAfterTurn } from '../../../lambda/core/scan/loop-turns';
import { leaveTickNotes } from '../../../lambda/runtime/tick-watch';
import { config, RecordingOperator, RecordingTelemetry } from '../../core/harness';
import { startDynalite, type LocalDynamo } from '../../support/dynalite';
import { coinbase, MemoryChain } from '../../support/memory-chain';
import { RecordingPublisher } from '../../support/recording-publisher';

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startDynalite({ tableName: 'stacks-watch-tick-notes' });
});
afterAll(async () => {
  await dynamo?.close();
});

describe("the ticks' notes for the loop's turns", () => {
  it('are read by a queued turn with its one read, outlive its cursor write, and are written by a tick only when one changed', async () => {
    let now = 1_800_000_000_000;
    const chain = new MemoryChain();
    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet', now: () => now, sleep: async () => {} });
    const deps = {
      chain,
      state: store,
      publisher: new RecordingPublisher(),
      clock: { now: () => now },
      telemetry: new RecordingTelemetry(),
      operator: new RecordingOperator(),
    };
    const budget = (runId: string) => ({ runId, deadlineMs: now + 20_000, leaseTtlMs: 120_000, alertStaleAfterMs: 120_000 });
    await store.takeLoopTurn({ owner: 'tick', nowMs: now, ttlMs: 120_000, expected: null, next: 'token-0', restart: { restarts: 0 } });
    await runCycle(deps, config(), { ...budget('tick'), leaseTaken: true });
    expect((await store.readWatchPoint()).notes).toEqual({ configVersion: null, smsDigestOwed: false });

    const point = await store.readWatchPoint();
    await leaveTickNotes(store, point, { configVersion: 'v1', smsDigestOwed: true });
    expect((await store.readWatchPoint()).notes).toEqual({ configVersion: 'v1', smsDigestOwed: true });

    now += 8_000;
    chain.mine([coinbase()]);
    const decision = await takeQueuedTurn(store, { owner: 'turn-1', nowMs: now, message: { loop: 'token-0', receives: 1 } });
    if (!decision.run || !decision.queued) throw new Error('the turn does not run');
    expect(decision.queued.notes).toEqual({ configVersion: 'v1', smsDigestOwed: true });
    const loopTurn = { handover: decision.queued.handover, cursor: decision.queued.cursor, handedOver: false };
    await runCycle(deps, config(), { ...budget('turn-1'), loopTurn });
    expect(await tokenAfterTurn(store, decision.queued, loopTurn.handedOver, now)).toBe('token-0');
    const after = await store.readWatchPoint();
    expect(after.notes).toEqual({ configVersion: 'v1', smsDigestOwed: true });

    const before = dynamo.requests.length;
    await leaveTickNotes(store, after, { configVersion: 'v1', smsDigestOwed: true });
    expect(dynamo.requests.slice(before)).toEqual([]);
    await leaveTickNotes(store, after, { configVersion: 'v1', smsDigestOwed: false });
    expect((await store.readWatchPoint()).notes).toEqual({ configVersion: 'v1', smsDigestOwed: false });
  });
});
