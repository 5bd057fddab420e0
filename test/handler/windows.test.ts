// Windows on the Lambda path: the handler over DynamoDB on dynalite, SNS mocked at the client. The window's
// counts ride on the cursor item, so a crossing that spans invocations is seen, once, and the item says
// what the window holds.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { Cl } from '@stacks/transactions';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);

const failedWithdraw = () =>
  contractCall({ contractId: vault, functionName: 'withdraw', sender: alice, status: 'abort_by_response', args: [Cl.uint(1)], result: Cl.error(Cl.uint(102)) });

describe('a window on the Lambda path', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  const published: PublishBatchRequestEntry[] = [];
  let handler: (event: unknown, context: Context) => Promise<import('../../lambda/core/cycle-types').CycleSummary>;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-windows' });
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({
        network: 'mainnet',
        calls: [{ name: 'vault withdraw failed', contractId: vault, functions: ['withdraw'], status: 'failed', alert: false }],
        windows: [{ name: 'withdraw failures', of: 'vault withdraw failed', minutes: 10, count: 5, severity: 'critical' }],
        startHeight: 1,
      }),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      POWERTOOLS_SERVICE_NAME: 'stacks-watch',
      POWERTOOLS_METRICS_NAMESPACE: 'StacksWatch',
    });
    vi.resetModules();
    ({ handler } = (await import('../../lambda/handler')) as unknown as { handler: typeof handler });
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    for (const key of ['TABLE_NAME', 'TOPIC_ARN', 'STACKS_API_URL', 'STACKS_API_RPM', 'WATCH_CONFIG', 'AWS_ENDPOINT_URL_DYNAMODB']) delete process.env[key];
  });
  beforeEach(() => {
    sns.reset();
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    captureOutput();
  });

  const alerts = () => published.map((e) => JSON.parse(JSON.parse(e.Message!).default) as Record<string, unknown>);

  it('crosses once across invocations, with the counts kept on the cursor item in DynamoDB', async () => {
    fake.chain.mine([failedWithdraw(), failedWithdraw()]); // 1
    fake.chain.mine([failedWithdraw()]); // 2
    await handler({}, lambdaContext('run-1'));
    expect(alerts()).toEqual([]); // 3 of 5, and the rule itself says "alert": false

    const item = await dynamo.client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: 'NET#mainnet' }, sk: { S: 'CURSOR' } } }));
    const windows = JSON.parse(item.Item!.windows!.S!) as Record<string, { entries: { h: number; n: number }[] }>;
    expect(windows['withdraw failures']!.entries.map((e) => [e.h, e.n])).toEqual([
      [1, 2],
      [2, 1],
    ]);

    const crossing = fake.chain.mine([failedWithdraw(), failedWithdraw()]); // 3: 5 in 10 minutes
    await handler({}, lambdaContext('run-2'));
    await handler({}, lambdaContext('run-3'));
    expect(alerts().map((a) => a.key)).toEqual([`window_threshold:withdraw failures:contract_call:${crossing.txs[1]!.txId}`]);
    expect(alerts()[0]).toMatchObject({ type: 'window_threshold', count: 5, tx_count: 5, first_block_height: 1, last_block_height: 3, severity: 'critical' });
    expect(published[0]!.MessageAttributes?.severity?.StringValue).toBe('critical');
  });
});
