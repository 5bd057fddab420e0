// A warm container keeps what does not change between its invocations: the DynamoDB document client over its
// one DynamoDB client. Each invocation still builds its own state store (it remembers the cursor it read), but
// over the container's document client, so a turn spends no CPU building a client again.
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it, vi } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const sns = mockClient(SNSClient);

describe('a warm container’s later invocations', () => {
  const fake = createFakeHiro();
  fake.chain.mine([transfer({ from: bob, to: alice, amount: 10 })]);
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-warm-clients',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 1 },
  });

  it('build no DynamoDB document client, and still keep the cursor and alert on each new block', async () => {
    await lambda.handler({}, lambdaContext('warm-1'));
    const built = vi.spyOn(DynamoDBDocumentClient, 'from');
    for (const [i, amount] of [11, 12].entries()) {
      fake.chain.mine([transfer({ from: bob, to: alice, amount })]);
      const summary = await lambda.handler({}, lambdaContext(`warm-${i + 2}`));
      expect(summary.blocksScanned).toBe(1);
    }
    expect(built).not.toHaveBeenCalled();
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });
});
