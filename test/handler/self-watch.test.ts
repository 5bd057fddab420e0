// The watcher's watch on itself, end to end: the real handler over the fake API and DynamoDB on dynalite, SNS
// mocked at the client. Each stall the lag alarm used to catch reaches the operations topic from the tick
// itself, once, with its cause, and a "moving again" message follows when it ends: on the 1-minute schedule
// (each run is a tick) and in the loop mode (a tick reads the loop's heartbeat and the cursor together).
import { PublishBatchCommand, PublishCommand, SNSClient, type PublishBatchRequestEntry, type PublishCommandInput } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvocationResult } from '../../lambda/handler';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { lambdaOnDynalite, recordPublishes } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';
import { loopOnDynalite, scheduleTick, turnEvent } from '../support/loop-environment';
import { drawShortestBackoff } from '../support/shortest-backoff';

const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const LIMIT_SECONDS = 600;
const alice = fakeAddress('alice');
const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

/** The notices the ops topic took since the test began, by kind ("Notice kind: …" ends each message). */
function recordNotices() {
  const notices: PublishCommandInput[] = [];
  sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
    notices.push(input);
    return { MessageId: `ops-${notices.length}` };
  });
  const of = (kind: string) => notices.filter((n) => n.Message!.endsWith(`Notice kind: ${kind}`));
  /** The self-watch's own notices, in order (other notices, such as a deprecated route's, left out). */
  const watcher = () => notices.filter((n) => /Notice kind: watcher-/.test(n.Message!));
  return { notices, of, watcher };
}

// The failed runs and turns retry as in production, without waiting out the backoff.
drawShortestBackoff();

describe('the self-watch on the 1-minute schedule', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-self-watch',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    extra: { OPS_TOPIC_ARN, LAG_ALARM_SECONDS: String(LIMIT_SECONDS) },
    keepPublished: true,
  });
  let now = Date.parse('2026-11-26T12:00:00Z');
  let runs = 0;
  const later = (ms: number) => vi.setSystemTime((now += ms));
  const mineNow = (txs: Parameters<typeof fake.chain.mine>[0] = []) => fake.chain.mine(txs, { time: Math.floor(now / 1000) });
  const tick = () => lambda.handler({}, lambdaContext(`run-${++runs}`, 120_000)) as Promise<InvocationResult>;
  let ops: ReturnType<typeof recordNotices>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    ops = recordNotices();
  });
  afterEach(() => vi.useRealTimers());

  it('pages a chain with no new block past the limit once, naming the tip, and says when it moves again', async () => {
    mineNow();
    await tick();
    later(LIMIT_SECONDS * 1000 - 1_000);
    await tick();
    expect(ops.watcher()).toEqual([]);
    later(2_000);
    await tick();
    expect(ops.of('watcher-stalled')).toHaveLength(1);
    expect(ops.watcher()[0]).toMatchObject({ TopicArn: OPS_TOPIC_ARN, Subject: expect.stringMatching(/no new block on the chain/) });
    for (let i = 0; i < 3; i += 1) {
      later(60_000);
      await tick();
    }
    expect(ops.watcher()).toHaveLength(1);
    const block = mineNow();
    later(5_000);
    await tick();
    expect(ops.of('watcher-moving')).toHaveLength(1);
    expect(ops.watcher()[1]!.Subject).toBe(`stacks-watch is moving again at block ${block.height}`);
    later(60_000);
    await tick();
    expect(ops.watcher()).toHaveLength(2);
  });

  it('pages a block that fails run after run as stuck, with the failure, then moving again once it passes', async () => {
    mineNow();
    await tick();
    // SNS fails on its side for the block's alert, every attempt of every run.
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => ({
      Successful: [],
      Failed: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, Code: 'InternalError', SenderFault: false, Message: 'try later' })),
    }));
    later(30_000);
    const stuck = mineNow([transfer({ to: alice, amount: 77 })]);
    for (let minute = 0; minute < 11; minute += 1) {
      later(60_000);
      await expect(tick()).rejects.toThrow(/InternalError/);
    }
    const stalled = ops.of('watcher-stalled');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]!.Subject).toMatch(new RegExp(`stuck at block ${stuck.height} for \\d+ min`));
    expect(stalled[0]!.Message).toContain('InternalError');
    recordPublishes(sns, { into: lambda.published });
    mineNow();
    await tick();
    expect(ops.of('watcher-moving')).toHaveLength(1);
  });

  it('pages a chain that does not link as such, naming the block', async () => {
    mineNow();
    await tick();
    later(30_000);
    const bad = mineNow();
    bad.parentHash = `0x${'ba'.repeat(32)}`;
    bad.parentIndexBlockHash = `0x${'bb'.repeat(32)}`;
    for (let minute = 0; minute < 11; minute += 1) {
      later(60_000);
      await tick().catch(() => undefined);
    }
    const stalled = ops.of('watcher-stalled');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]!.Subject).toMatch(new RegExp(`the chain does not link at block ${bad.height}`));
  });
});

describe('the self-watch in the loop mode', () => {
  const fake = createFakeHiro();
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-self-watch-loop',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    delaySeconds: 8,
    turnSeconds: 20,
    startAt: '2026-11-26T12:00:00Z',
    extra: { OPS_TOPIC_ARN, LAG_ALARM_SECONDS: String(LIMIT_SECONDS) },
  });
  let ops: ReturnType<typeof recordNotices>;
  beforeEach(() => {
    ops = recordNotices();
  });

  it('pages a loop that died while the API fails, naming the loop, from the tick that restarts it', async () => {
    fake.chain.mine([], { time: Math.floor(loop.now() / 1000) });
    await loop.invoke(scheduleTick);
    // The turn is never handed back (the message lost) and the API fails from here on.
    const stop = fake.faults.use(() => ({ status: 503 }));
    try {
      loop.later(LIMIT_SECONDS * 1000 + 1_000);
      await loop.invoke(scheduleTick).catch(() => undefined);
    } finally {
      stop();
    }
    const stalled = ops.of('watcher-stalled');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]!.Subject).toMatch(/loop died/);
  });

  it('says moving again from a tick that finds the loop alive and its turns scanning again', async () => {
    fake.chain.mine([], { time: Math.floor(loop.now() / 1000) });
    await loop.invoke(turnEvent(loop.lastTurn()));
    loop.later(5_000);
    expect(await loop.invoke(scheduleTick)).toEqual({ loopTurnSkipped: 'loop-alive' });
    expect(ops.of('watcher-moving')).toHaveLength(1);
    loop.later(60_000);
    await loop.invoke(scheduleTick);
    expect(ops.watcher()).toHaveLength(1);
  });

  it('keeps a loop whose quiet turns write nothing alive, and still pages it at the limit once it dies', async () => {
    fake.chain.mine([], { time: Math.floor(loop.now() / 1000) });
    await loop.invoke(scheduleTick);
    // Two minutes of a quiet chain: each turn finds no block; only a heartbeat every LOOP_BEAT_EVERY_MS is written.
    for (let i = 0; i < 15; i += 1) {
      loop.later(8_000);
      await loop.invoke(turnEvent(loop.lastTurn()));
      if (i % 7 === 6) expect(await loop.invoke(scheduleTick)).toEqual({ loopTurnSkipped: 'loop-alive' });
    }
    expect(ops.watcher()).toEqual([]);
    // Then the loop dies (its next turn never comes back) and the API fails: the tick past the limit pages it.
    const stop = fake.faults.use(() => ({ status: 503 }));
    try {
      loop.later(LIMIT_SECONDS * 1000 + 1_000);
      await loop.invoke(scheduleTick).catch(() => undefined);
    } finally {
      stop();
    }
    const stalled = ops.of('watcher-stalled');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]!.Subject).toMatch(/loop died/);
  });
});
