// A loop turn that meets the API's rate limit (docs/latency.md): the real handler over a fake Hiro server that
// enforces its budget, DynamoDB on dynalite, SQS mocked at the client. The turn ends there, rather than sleep
// billed until the window resets, and hides its message until the reset; the turns after it pick up where it
// stopped, every alert published once; turns that keep ending there tell the operator once. A scheduled run
// still waits for the window within its time.
//
// The fake's window runs on a clock the test moves (60 API seconds are 600 of its ms), the handler on a fake
// Date: a test moves the Date by the turn's delay and the gateway's clock past its window, so that however
// slowly a loaded machine runs a turn, its requests land in the window the test means (on a real clock, a
// turn that took 600 ms found a fresh window and never met the limit).
import { PublishCommand, type PublishCommandInput, SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import type { InvocationResult } from '../../lambda/handler';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';
import { BUDGET_STOPS_TO_TELL } from '../../lambda/hiro/throttling-notice';
import { loopOnDynalite, scheduleTick as tick, turnEvent } from '../support/loop-environment';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
/** Real ms per API ms at the fake gateway: its 60 s window lasts 600 ms. */
const TIME_SCALE = 0.01;
const WINDOW_REAL_MS = 60_000 * TIME_SCALE;
/** The fake's requests a window; a turn following the tip reads the tip, then one request a block. */
const LIMIT = 16;
const watched = Array.from({ length: 4 }, (_, i) => fakeAddress(`holder-${i}`));

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);
/** The gateway's clock, in its real ms: moved only by `nextWindow`. */
let gatewayMs = 0;
/** The gateway's window ends; the next request starts a new one. */
const nextWindow = () => {
  gatewayMs += WINDOW_REAL_MS + 50;
};
const mineTransferTo = (fake: ReturnType<typeof createFakeHiro>, i: number) =>
  fake.chain.mine([transfer({ to: watched[i]!, amount: 1_000_000 + i })]).txs[0]!.txId;

describe('a loop turn that meets the rate limit ends and sets the next turn for the reset', () => {
  const fake = createFakeHiro({ rateLimit: { limit: LIMIT, windowSeconds: 60, timeScale: TIME_SCALE, clock: () => gatewayMs } });
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-loop-budget',
    watchConfig: { network: 'mainnet', addresses: watched, startHeight: 1 },
    delaySeconds: DELAY_SECONDS,
    turnSeconds: TURN_SECONDS,
    startAt: '2026-11-25T12:00:30Z',
    extra: { OPS_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops' },
  });
  const { lambda, hidden, invoke, later, lastTurn } = loop;
  const summaryOf = (result: InvocationResult) => {
    if (!('stoppedBecause' in result)) throw new Error(`the turn ran no cycle: ${result.loopTurnSkipped}`);
    return result;
  };
  /** Another client on the same address spends `count` requests of the gateway's window. */
  const spend = async (count: number) => {
    for (let i = 0; i < count; i += 1) await fetch(`${lambda.server.url}/extended`).then((r) => r.arrayBuffer());
  };
  const mineTransfer = (i: number) => mineTransferTo(fake, i);
  /**
   * One turn of the loop's message after `delaySeconds` of the fake Date, timed on the real clock; `nextDelay` is the
   * visibility it set, or the queue's own visibility timeout (the delay) when it set none.
   */
  const turnAfter = async (delaySeconds: number) => {
    later(delaySeconds * 1000);
    const started = performance.now();
    const hiddenBefore = hidden.length;
    const summary = summaryOf(await invoke(turnEvent(lastTurn())));
    const set = hidden.slice(hiddenBefore).map((h) => h.VisibilityTimeout);
    return { summary, realMs: performance.now() - started, visibilitySet: set, nextDelay: set.at(-1) ?? DELAY_SECONDS };
  };

  it('ends without sleeping on a spent window, its next turn delayed to the reset, and the turn after it publishes every alert once', async () => {
    await invoke(tick); // starts the loop on the first empty block
    const first = mineTransfer(0);
    nextWindow();
    const caughtUp = await turnAfter(DELAY_SECONDS);
    expect(caughtUp.summary.stoppedBecause).toBe('caught-up');
    // Caught up, no wait asked: the queue's visibility timeout gives the delay, no visibility change.
    expect(caughtUp.visibilitySet).toEqual([]);

    // A fresh window, all but 2 requests spent by another client: the tip and one block, then the window is out.
    nextWindow();
    await spend(LIMIT - 2);
    const stalled = [mineTransfer(1), mineTransfer(2), mineTransfer(3)];
    const stopped = await turnAfter(caughtUp.nextDelay!);
    expect(stopped.summary.stoppedBecause).toBe('api-backoff');
    expect(stopped.realMs).toBeLessThan(1_500); // no sleep on the window's reset, a minute away
    // The block it read before the window ran out is finished and kept; the cursor goes no further.
    expect(stopped.summary.cursor?.height).toBe(caughtUp.summary.cursor!.height + 1);
    expect(lambda.published).toHaveLength(2);
    // Ending on the rate limit, the turn still sets the window's reset as its message's visibility.
    expect(stopped.visibilitySet).toHaveLength(1);
    expect(stopped.nextDelay).toBeGreaterThan(DELAY_SECONDS);
    expect(stopped.nextDelay).toBeLessThanOrEqual(60);

    nextWindow();
    const resumed = await turnAfter(stopped.nextDelay!);
    expect(resumed.summary.stoppedBecause).toBe('caught-up');
    expect(lambda.published.map((e) => alertOf(e).key)).toEqual([first, ...stalled].map((txId) => `token_transfer:${txId}`));
  }, 20_000);

  it("tells the operator once when the loop's turns keep ending on the rate limit", async () => {
    const notices: PublishCommandInput[] = [];
    sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
      notices.push(input);
      return { MessageId: `ops-${notices.length}` };
    });
    let delay = DELAY_SECONDS;
    for (let i = 0; i < BUDGET_STOPS_TO_TELL + 1; i += 1) {
      nextWindow();
      await spend(LIMIT); // another client spends the whole window
      mineTransfer(i);
      const turn = await turnAfter(delay);
      expect(turn.summary.stoppedBecause).toBe('api-backoff');
      delay = turn.nextDelay!;
    }

    expect(notices.map((n) => n.Subject)).toEqual(["stacks-watch: the loop's reads keep outrunning the Hiro API's rate limit"]);
    expect(notices[0]!.Message).toContain('Notice kind: rate-limited');
  }, 20_000);
});

describe('a scheduled run that meets the rate limit', () => {
  // Real time here: a 3 s window, its retry-after waited out for real (the run has a minute).
  const fake = createFakeHiro({ rateLimit: { limit: 2, windowSeconds: 3 } });
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-schedule-budget',
    watchConfig: { network: 'mainnet', addresses: watched, startHeight: 1 },
  });

  it('still waits within its time for the window to reset and reads on, as before', async () => {
    const txId = mineTransferTo(fake, 0);
    for (let i = 0; i < 2; i += 1) await fetch(`${lambda.server.url}/extended`).then((r) => r.arrayBuffer()); // the window spent

    const started = performance.now();
    const summary = await lambda.handler(tick, lambdaContext('scheduled-run', 60_000));

    expect('stoppedBecause' in summary && summary.stoppedBecause).toBe('caught-up');
    expect(performance.now() - started).toBeGreaterThan(1_000); // it waited on the window
    expect(lambda.published.map((e) => alertOf(e).key)).toEqual([`token_transfer:${txId}`]);
  }, 20_000);
});
