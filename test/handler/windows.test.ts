// Windows on the Lambda path: the handler over DynamoDB on dynalite, SNS mocked at the client. The window's
// counts ride on the cursor item, so a crossing that spans invocations is seen, once, and the item says
// what the window holds.
import { SNSClient } from '@aws-sdk/client-sns';
import { brotliDecompressSync } from 'node:zlib';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);

const failedWithdraw = () =>
  contractCall({ contractId: vault, functionName: 'withdraw', sender: alice, status: 'abort_by_response', args: [Cl.uint(1)], result: Cl.error(Cl.uint(102)) });

describe('a window on the Lambda path', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-windows',
    watchConfig: {
      network: 'mainnet',
      calls: [{ name: 'vault withdraw failed', contractId: vault, functions: ['withdraw'], status: 'failed', alert: false }],
      windows: [{ name: 'withdraw failures', of: 'vault withdraw failed', minutes: 10, count: 5, severity: 'critical' }],
      startHeight: 1,
    },
  });
  const { handler } = lambda;

  const alerts = () => lambda.published.map(alertOf);

  it('crosses once across invocations, with the counts kept on the cursor item in DynamoDB', async () => {
    fake.chain.mine([failedWithdraw(), failedWithdraw()]); // 1
    fake.chain.mine([failedWithdraw()]); // 2
    await handler({}, lambdaContext('run-1'));
    expect(alerts()).toEqual([]); // 3 of 5, and the rule itself says "alert": false

    const { dynamo } = lambda;
    const item = await dynamo.client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: 'NET#mainnet' }, sk: { S: 'CURSOR' } } }));
    const windows = JSON.parse(brotliDecompressSync(item.Item!.windows!.B!).toString('utf8')) as Record<string, { entries: { h: number; n: number }[] }>;
    expect(windows['withdraw failures']!.entries.map((e) => [e.h, e.n])).toEqual([
      [1, 2],
      [2, 1],
    ]);

    const crossing = fake.chain.mine([failedWithdraw(), failedWithdraw()]); // 3: 5 in 10 minutes
    await handler({}, lambdaContext('run-2'));
    await handler({}, lambdaContext('run-3'));
    expect(alerts().map((a) => a.key)).toEqual([`window_threshold:withdraw failures:contract_call:${crossing.txs[1]!.txId}`]);
    expect(alerts()[0]).toMatchObject({ type: 'window_threshold', count: 5, tx_count: 5, first_block_height: 1, last_block_height: 3, severity: 'critical' });
    expect(lambda.published[0]!.MessageAttributes?.severity?.StringValue).toBe('critical');
  });
});
