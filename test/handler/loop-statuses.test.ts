// The loop mode checks the contract statuses about once a minute, not every turn (lambda/runtime/loop-invocation.ts,
// statusesDue): the real handler over a fake Hiro server and DynamoDB on dynalite, SQS mocked at the client, time
// moved with a fake Date. A turn between two due checks tells its cycle to check none.
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import type { InvocationResult } from '../../lambda/handler';
import { createFakeHiro, fakeAddress, fakeContractId } from '../support/fake-hiro';
import { loopOnDynalite, scheduleTick as tick, turnEvent } from '../support/loop-environment';

const DELAY_SECONDS = 8;
const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

describe('the loop mode and the contract statuses', () => {
  const fake = createFakeHiro();
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-loop-statuses',
    watchConfig: { network: 'mainnet', addresses: [fakeAddress('alice')], contracts: [fakeContractId('vault')], startHeight: 1 },
    delaySeconds: DELAY_SECONDS,
    turnSeconds: 20,
    startAt: '2026-11-25T12:00:00Z',
  });
  const checked = (result: InvocationResult) => ('contractsChecked' in result ? result.contractsChecked : undefined);

  it('checks them in the turns of the first seconds of a minute only', async () => {
    const seen = [checked(await loop.invoke(tick))]; // 12:00:00, the loop's first turn
    for (let turn = 1; turn <= 8; turn += 1) {
      loop.later(DELAY_SECONDS * 1000); // 12:00:08, 12:00:16 … 12:01:04
      seen.push(checked(await loop.invoke(turnEvent(loop.lastTurn()))));
    }
    expect(seen).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 1]);
  });
});
