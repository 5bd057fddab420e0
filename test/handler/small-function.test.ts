// A 128 MB function (the loop's size) restarted by the watchdog far behind the tip: the real handler on dynalite
// over the fake Hiro server. It reads its catch-up in small batches (runtime/memory-bounds.ts), so what a
// batch holds stays within the function's memory, and every block is still alerted once, in order.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SMALL_FUNCTION_READ_AHEAD, SMALL_FUNCTION_REQUESTS_IN_FLIGHT } from '../../lambda/runtime/memory-bounds';
import { coinbase, createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf } from '../support/handler-environment';
import { loopOnDynalite, scheduleTick as tick } from '../support/loop-environment';

const alice = fakeAddress('alice');
const BEHIND = 30;
const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

/** Heights whose transactions the fake API was asked for, in order. */
function heightsRequested(server: { requestsTo(): { path: string }[] }): number[] {
  const heights = server.requestsTo().map((r) => /\/blocks\/(\d+)\/transactions/.exec(r.path)?.[1]);
  return [...new Set(heights.filter((h): h is string => h !== undefined).map(Number))];
}

/** The handler as a 128 MB function (Lambda tells it its memory), watching alice, on a table of its own. */
function smallFunction(fake: ReturnType<typeof createFakeHiro>, tableName: string, extra: Record<string, string> = {}) {
  return loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName,
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 2 },
    delaySeconds: 8,
    turnSeconds: 20,
    startAt: '2026-11-26T12:00:00Z',
    extra: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '128', ...extra },
  });
}

describe('a 128 MB function catching up', () => {
  const fake = createFakeHiro();
  const loop = smallFunction(fake, 'stacks-watch-small-function');

  it('reads a few blocks ahead at a time and alerts every block once, in order', async () => {
    const blocks = Array.from({ length: BEHIND }, (_, i) => fake.chain.mine([transfer({ to: alice, amount: 1_000 + i })]));
    const requestedAtFirstAlert: number[][] = [];
    const published: PublishBatchRequestEntry[] = [];
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      if (published.length === 0) requestedAtFirstAlert.push(heightsRequested(fake));
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });

    await loop.invoke(tick);

    // The first block's alert goes out before more than one small batch of blocks was read.
    expect(requestedAtFirstAlert[0]!.length).toBeLessThanOrEqual(SMALL_FUNCTION_READ_AHEAD);
    expect(published.map((e) => alertOf(e).key)).toEqual(blocks.map((b) => `token_transfer:${b.txs[0]!.txId}`));
  });
});

describe('a 128 MB function catching up over blocks of many pages', () => {
  const fake = createFakeHiro();
  // Read block by block: a block's pages are read several at once.
  const loop = smallFunction(fake, 'stacks-watch-small-function-pages', { FETCH_WAY: 'block-scan' });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('never has more Hiro requests in flight than its bound, even over blocks of many pages', async () => {
    // Blocks of 300 transactions: 6 pages each of the block list, each answer slowed so that requests overlap.
    const blocks = Array.from({ length: 6 }, (_, i) =>
      fake.chain.mine([transfer({ to: alice, amount: 5_000 + i }), ...Array.from({ length: 299 }, () => coinbase())]),
    );
    // Counted where they arrive: each is answered when its 15 ms delay ends, just after it leaves the count.
    let inFlight = 0;
    let most = 0;
    fake.faults.use(() => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => (inFlight -= 1), 15);
      return { delayMs: 15 };
    });
    const published: PublishBatchRequestEntry[] = [];
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });

    await loop.invoke(tick);
    fake.faults.use(() => undefined);

    expect(published.length).toBe(blocks.length);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(SMALL_FUNCTION_REQUESTS_IN_FLIGHT);
    expect(published.map((e) => alertOf(e).key)).toEqual(blocks.map((b) => `token_transfer:${b.txs[0]!.txId}`));
  });
});
