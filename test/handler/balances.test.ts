// A balance rule on the Lambda path: the handler over DynamoDB on dynalite, SNS mocked at the client. The
// relayer's balance is read once to start, kept in its table item between invocations, and a fee crossing
// the threshold is published once, in the block where it crossed.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const relayer = fakeAddress('relayer');
const bridge = fakeContractId('bridge');
const relay = (fee: number) => ({ ...contractCall({ contractId: bridge, sender: relayer }), feeRate: String(fee) });
const ENV = ['TABLE_NAME', 'TOPIC_ARN', 'STACKS_API_URL', 'STACKS_API_RPM', 'WATCH_CONFIG', 'AWS_ENDPOINT_URL_DYNAMODB'];

const sns = mockClient(SNSClient);

describe('a balance rule in the Lambda, state in DynamoDB', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  const published: PublishBatchRequestEntry[] = [];
  let handler: (event: unknown, context: Context) => Promise<CycleSummary>;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-balances' });
    fake.chain.setGenesisBalance(relayer, 'stx', 50_006_000);
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({ network: 'mainnet', startHeight: 1, balances: [{ name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000', severity: 'critical' }] }),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    vi.resetModules();
    ({ handler } = (await import('../../lambda/handler')) as unknown as { handler: typeof handler });
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    for (const key of ENV) delete process.env[key];
  });
  beforeEach(() => {
    sns.reset();
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    captureOutput();
  });
  afterEach(() => vi.restoreAllMocks());

  it('keeps the balance in its table item across invocations and publishes the crossing once', async () => {
    fake.chain.mine([relay(3_000)]); // 50,003,000
    await handler({}, lambdaContext('run-1'));
    expect(published).toEqual([]);

    const crossing = fake.chain.mine([relay(2_000), relay(2_000)]); // 50,001,000, then 49,999,000: the second crossed
    fake.chain.mine([relay(1_000)]); // further below: no second alert
    await handler({}, lambdaContext('run-2'));
    await handler({}, lambdaContext('run-3'));

    const alerts = published.map((e) => JSON.parse(JSON.parse(e.Message!).default) as Record<string, unknown>);
    expect(alerts).toEqual([
      expect.objectContaining({ type: 'balance_threshold', crossed: 'below', balance: '49999000', tx_id: crossing.txs[1]!.txId, block_height: crossing.height, severity: 'critical' }),
    ]);
    expect(published[0]!.MessageAttributes?.address?.StringValue).toBe(relayer);
    // Read once, at the block before the first: the later invocations started from the stored book.
    expect(fake.count(ROUTES.balances)).toBe(1);
    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
    const book = await store.readBalanceBook();
    expect(Object.values(book!.deltas.at(-1)!.entries)).toEqual([expect.objectContaining({ balance: '49998000', zone: 'below' })]);
  }, 60_000);
});
