// A reorg that leaves 10,000 alerts waiting for confirmation on the new chain, through the real cycle on
// DynamoDB (dynalite, which enforces the 400 KB item limit): the rewind and every cursor move after it must
// write, or the watcher would stall at the fork for ever.
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { runCycle } from '../../lambda/core/cycle';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { config, RecordingOperator, RecordingTelemetry } from '../core/harness';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { coinbase, MemoryChain } from '../support/memory-chain';
import { RecordingPublisher } from '../support/recording-publisher';

let dynamo: LocalDynamo | undefined;
afterEach(async () => {
  await dynamo?.close();
  dynamo = undefined;
});

describe('state too large for one DynamoDB item', () => {
  it('rewinds past a block with 10,000 alert keys and keeps scanning with them all pending retraction', async () => {
    dynamo = await startDynalite();
    let now = 1_800_000_000_000;
    const clock = { now: () => now };
    const state = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet', now: clock.now, sleep: async () => {} });
    const chain = new MemoryChain(100, 1);
    for (let i = 0; i < 3; i++) chain.mine([coinbase()]); // 101..103
    const deps = { chain, state, publisher: new RecordingPublisher(), clock, telemetry: new RecordingTelemetry(), operator: new RecordingOperator() };
    const run = (id: string) =>
      runCycle(deps, config({ startHeight: 101 }), { runId: id, deadlineMs: now + 60_000, leaseTtlMs: 60_000, alertStaleAfterMs: 60_000 });
    expect((await run('first')).cursor?.height).toBe(103);

    // Block 103 as if it had matched 10,000 events (their alerts are what a reorg must recheck).
    const block103 = (await state.getScannedBlocks(103, 103))[0]!;
    const keys = Array.from({ length: 10_000 }, (_, i) => `contract_log:0x${i.toString(16).padStart(64, '0')}:${i}`);
    await state.putScannedBlocks([{ ...block103, alertKeys: keys }]);

    chain.reorg(1, [[coinbase()], [coinbase()]]); // a new 103 and 104, short of the retraction grace
    now += 60_000;
    const summary = await run('after-the-reorg');
    expect(summary.reorgs).toBe(1);
    expect(summary.cursor?.height).toBe(104);
    const cursor = (await state.readCursor())!;
    expect(cursor.pendingRetractions?.keys).toHaveLength(10_000);
    expect(cursor.pendingRetractions?.untilHeight).toBe(103 + RETRACTION_GRACE_BLOCKS);
  });
});
