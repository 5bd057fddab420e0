// A 128 MB function (the loop's size) restarted by the watchdog far behind the tip: the real handler on dynalite
// over the fake Hiro server. It reads its catch-up in small batches (runtime/memory-bounds.ts), so what a
// batch holds stays within the function's memory, and every block is still alerted once, in order.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { SMALL_FUNCTION_READ_AHEAD } from '../../lambda/runtime/memory-bounds';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
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

describe('a 128 MB function catching up', () => {
  const fake = createFakeHiro();
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-small-function',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 2 },
    delaySeconds: 8,
    turnSeconds: 20,
    startAt: '2026-11-26T12:00:00Z',
    extra: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '128' },
  });

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
