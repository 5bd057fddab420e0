// A queued loop turn on the real DynamoDB store (dynalite), its requests counted at the client: a turn that
// sees a new block costs one read and one write (the cursor, its blocks and the loop's token with the
// heartbeat, in one conditional update), a turn that sees none writes nothing. A message is a loop id and the
// receive count SQS gives it: two copies of one delivery, a crash at the write and a reorg below blocks that only
// the cursor item holds lose nothing and double nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoStateStore } from '../../../lambda/adapters/dynamodb';
import { runCycle } from '../../../lambda/core/cycle';
import type { CycleSummary } from '../../../lambda/core/cycle-types';
import {
  LOOP_BEAT_EVERY_MS,
  loopToken,
  metAnotherRun,
  takeQueuedTurn,
  tokenAfterTurn,
  type TurnDecision,
  type TurnMessage,
} from '../../../lambda/core/scan/loop-turns';
import { OPEN_STRETCH_BLOCKS } from '../../../lambda/adapters/dynamodb/open-stretch';
import { RETRACTION_GRACE_BLOCKS } from '../../../lambda/core/scan/retractions';
import { config, RecordingOperator, RecordingTelemetry, WATCHED } from '../../core/harness';
import { startDynalite, type LocalDynamo } from '../../support/dynalite';
import { coinbase, MemoryChain, transfer } from '../../support/memory-chain';
import { RecordingPublisher } from '../../support/recording-publisher';

let dynamo: LocalDynamo;
let client: DynamoDBClient;
/** DynamoDB requests sent since the test (or `calls.length = 0`) began, by command. */
const calls: string[] = [];
/** Fails the next cursor write (UpdateItem) once, as a crash just before DynamoDB took it. */
let crashNextUpdate = false;
let tables = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
  client = dynamo.newClient();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      const input = args.input as { UpdateExpression?: string };
      if (command === 'UpdateItem' && crashNextUpdate && input.UpdateExpression?.includes('#version')) {
        crashNextUpdate = false;
        throw new Error('the container died before the write');
      }
      calls.push(command);
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
});
afterAll(async () => {
  await dynamo.close();
});

function loopOnTable(tableName: string) {
  let now = 1_800_000_000_000;
  let runs = 0;
  let receives = 0;
  const chain = new MemoryChain();
  const publisher = new RecordingPublisher();
  const telemetry = new RecordingTelemetry();
  const store = createDynamoStateStore({ client, tableName, network: 'mainnet', now: () => now, sleep: async () => {} });
  const deps = { chain, state: store, publisher, clock: { now: () => now }, telemetry, operator: new RecordingOperator() };
  const budget = () => ({ runId: `run-${++runs}`, deadlineMs: now + 20_000, leaseTtlMs: 120_000, alertStaleAfterMs: 120_000 });

  return {
    chain,
    publisher,
    store,
    later: (ms: number) => (now += ms),
    /** The watchdog's first turn: it takes the lease with the first token and places the cursor. */
    async start(): Promise<string> {
      await store.takeLoopTurn({ owner: 'tick', nowMs: now, ttlMs: 120_000, expected: null, next: 'token-0', restart: { restarts: 0 } });
      await runCycle(deps, config(), { ...budget(), runId: 'tick', leaseTaken: true });
      return 'token-0';
    },
    /** SQS delivering the loop's message once more: its receive count goes up. */
    deliver: (loop: string): TurnMessage => ({ loop, receives: ++receives }),
    decide: (message: TurnMessage): Promise<TurnDecision> => takeQueuedTurn(store, { owner: `turn-${runs + 1}`, nowMs: now, message }),
    /** A decided turn's cycle and the loop id its message goes on with (null: the loop ends). */
    async finish(decision: TurnDecision): Promise<{ summary: CycleSummary; next: string | null }> {
      if (!decision.run || !decision.queued) throw new Error(`the turn does not run: ${JSON.stringify(decision)}`);
      const loopTurn = { handover: decision.queued.handover, cursor: decision.queued.cursor, handedOver: false };
      const summary = await runCycle(deps, config(), { ...budget(), loopTurn });
      return { summary, next: await tokenAfterTurn(store, decision.queued, loopTurn.handedOver, now, metAnotherRun(summary.stoppedBecause)) };
    },
    /** The next delivery of the loop's message, decided and run. */
    async turn(loop: string) {
      return this.finish(await this.decide(this.deliver(loop)));
    },
  };
}

describe('a queued loop turn on DynamoDB', () => {
  let loop: ReturnType<typeof loopOnTable>;
  beforeEach(async () => {
    loop = loopOnTable(await dynamo.createTable(`turns-${++tables}`));
  });

  it('costs one read and one conditional write when it sees a new block, which stores its receive count in the token', async () => {
    const token = await loop.start();
    loop.later(8_000);
    loop.chain.mine([coinbase()]);
    calls.length = 0;
    const { summary, next } = await loop.turn(token);
    expect(summary.blocksScanned).toBe(1);
    expect(calls).toEqual(['GetItem', 'UpdateItem']);
    expect(next).toBe(token);
    expect((await loop.store.readLoop())?.turn).toBe(loopToken(token, 1));
  });

  it('writes nothing when it sees no new block and keeps its token, but beats once the heartbeat is LOOP_BEAT_EVERY_MS old', async () => {
    const token = await loop.start();
    loop.later(8_000);
    calls.length = 0;
    const quiet = await loop.turn(token);
    expect(calls).toEqual(['GetItem']);
    expect(quiet.next).toBe(token);
    expect(await loop.store.readLoop()).toMatchObject({ turn: token });

    loop.later(LOOP_BEAT_EVERY_MS);
    calls.length = 0;
    const beat = await loop.turn(token);
    expect(calls).toEqual(['GetItem', 'UpdateItem']);
    expect(beat.next).toBe(token);
    expect(await loop.store.readLoop()).toMatchObject({ turn: loopToken(token, 2) });
  });

  it('keeps a dozen turns of blocks on the cursor item, writes them out past it, and finds a reorg below them from there', async () => {
    const token = await loop.start();
    for (let i = 0; i < OPEN_STRETCH_BLOCKS + 3; i += 1) {
      loop.later(8_000);
      loop.chain.mine(i === OPEN_STRETCH_BLOCKS + 1 ? [transfer(WATCHED)] : [coinbase()]);
      expect((await loop.turn(token)).next).toBe(token);
    }
    const tip = loop.chain.tip.height;
    const remembered = await createDynamoStateStore({ client, tableName: `turns-${tables}`, network: 'mainnet' }).getScannedBlocks(tip - 20, tip);
    expect(remembered.map((b) => b.hash)).toEqual(loop.chain.blocks.filter((b) => b.height >= tip - 20 && b.height <= tip).map((b) => b.hash));

    // Replace the last two blocks (one only on the cursor item, one in the stretch its alert put it in).
    loop.chain.reorg(2, [[coinbase()], [coinbase()]]);
    loop.later(8_000);
    const { summary, next } = await loop.turn(token);
    expect(summary.reorgs).toBe(1);
    expect(summary.cursor).toEqual({ height: loop.chain.tip.height, hash: loop.chain.tip.hash });
    // The lost transfer is retracted once the new chain is RETRACTION_GRACE_BLOCKS past it.
    loop.later(8_000);
    for (let i = 0; i <= RETRACTION_GRACE_BLOCKS; i += 1) loop.chain.mine([coinbase()]);
    expect(next).toBe(token);
    await loop.turn(token);
    expect(loop.publisher.sent.map((a) => a.alert.type).sort()).toEqual(['retraction', 'token_transfer']);
  });

  it("is one loop again after two copies of one delivery: the second copy's write is refused and its message ends", async () => {
    const token = await loop.start();
    loop.later(8_000);
    loop.chain.mine([transfer(WATCHED)]);
    const copy = loop.deliver(token);
    const [first, second] = [await loop.decide(copy), await loop.decide(copy)];
    const a = await loop.finish(first);
    const b = await loop.finish(second);
    expect(a.summary.stoppedBecause).toBe('caught-up');
    expect(b.summary.stoppedBecause).toBe('cursor-conflict');
    expect([a.next, b.next]).toEqual([token, null]);
    expect(loop.publisher.sent).toHaveLength(1);
    // A third copy of that delivery, at the count the write stored, is stale; the next delivery runs.
    loop.later(8_000);
    expect(await loop.decide(copy)).toEqual({ run: false, why: 'stale-token' });
    expect((await loop.turn(token)).next).toBe(token);
  });

  it("drops a copy a visibility change missed: it counts its own receives from where it was left, behind the live copy's write", async () => {
    const token = await loop.start();
    loop.later(8_000);
    loop.chain.mine([coinbase()]);
    const split = loop.deliver(token); // the delivery whose visibility change one copy missed
    await loop.finish(await loop.decide(split));
    loop.later(LOOP_BEAT_EVERY_MS);
    await loop.turn(token); // the live copy's next turn beats, storing its count
    // The missed copy shows again after the queue's visibility timeout, one receive past where it was left.
    expect(await loop.decide({ loop: token, receives: split.receives + 1 })).toEqual({ run: false, why: 'stale-token' });
  });

  it('keeps the loop going when a cursor write meets another run that did not move the token: the heartbeat then says so', async () => {
    const token = await loop.start();
    loop.later(8_000);
    loop.chain.mine([transfer(WATCHED)]);
    const decision = await loop.decide(loop.deliver(token));
    // Another run (a doorbell's cycle) moves the cursor between this turn's read and its write.
    await runCycle(
      {
        chain: loop.chain,
        state: loop.store,
        publisher: loop.publisher,
        clock: { now: () => 1 },
        telemetry: new RecordingTelemetry(),
        operator: new RecordingOperator(),
      },
      config(),
      { runId: 'doorbell', deadlineMs: Number.MAX_SAFE_INTEGER, leaseTtlMs: 1, alertStaleAfterMs: 120_000 },
    );
    const { summary, next } = await loop.finish(decision);
    expect(summary.stoppedBecause).toBe('cursor-conflict');
    expect(next).toBe(token);
  });

  it('loses and doubles nothing when the container dies at the write: the message comes back and the turn runs again', async () => {
    const token = await loop.start();
    loop.later(8_000);
    loop.chain.mine([transfer(WATCHED)]);
    crashNextUpdate = true;
    await expect(loop.turn(token)).rejects.toThrow(/died before the write/);
    expect(loop.publisher.sent).toHaveLength(1);
    loop.later(30_000); // SQS shows the message again after its visibility timeout, one receive more
    const again = await loop.turn(token);
    expect(again.summary.cursor?.height).toBe(loop.chain.tip.height);
    expect(loop.publisher.sent).toHaveLength(1);
  });

  it("lets a doorbell's cycle holding the lease work: the turn runs nothing and keeps its message", async () => {
    const token = await loop.start();
    await loop.store.acquireLease('doorbell', 1_800_000_000_000, 60_000);
    calls.length = 0;
    expect(await loop.decide(loop.deliver(token))).toEqual({ run: false, why: 'lease-held' });
    expect(calls).toEqual(['GetItem']);
  });
});
