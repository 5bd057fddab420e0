// The pending rules on the Lambda path: the handler against the fake Hiro API's mempool, DynamoDB on dynalite
// (the mempool state is an item beside the cursor), SNS mocked at the client. A waiting call is published once
// across invocations, and its mined alert names the pending one.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { Cl } from '@stacks/transactions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const attacker = fakeAddress('attacker');
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);
const ENV = ['TABLE_NAME', 'TOPIC_ARN', 'STACKS_API_URL', 'STACKS_API_RPM', 'WATCH_CONFIG', 'AWS_ENDPOINT_URL_DYNAMODB'];

describe('the Lambda handler with a pending rule', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  const published: Record<string, unknown>[] = [];
  let handler: (event: unknown, context: Context) => Promise<unknown>;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-pending' });
    fake.chain.mine([coinbase()]);
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({
        network: 'mainnet',
        calls: [{ contractId: vault, functions: ['set-owner'], name: 'Owner change', severity: 'critical', pending: true }],
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
    ({ handler } = await import('../../lambda/handler'));
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    for (const key of ENV) delete process.env[key];
  });
  beforeEach(() => {
    sns.reset();
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries.map((e) => JSON.parse(JSON.parse(e.Message!).default) as Record<string, unknown>));
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    captureOutput();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('publishes a waiting call once across invocations, keeps the mempool state in DynamoDB, and names it in the mined alert', async () => {
    const call = fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }));
    await handler({}, lambdaContext('run-1'));
    await handler({}, lambdaContext('run-2'));
    expect(published.map((a) => [a.type, a.args])).toEqual([['pending_call', [attacker]]]);

    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
    const state = await store.readMempoolState();
    expect(state?.seen).toContain(call.txId);
    expect(state?.tracked.map((t) => [t.txId, t.pendingKey])).toEqual([[call.txId, `pending_call:${call.txId}`]]);

    fake.chain.mine([coinbase(), call as never]);
    fake.clearLog();
    await handler({}, lambdaContext('run-3'));
    expect(published.slice(1).map((a) => [a.key, a.pending_key])).toEqual([[`contract_call:${call.txId}`, `pending_call:${call.txId}`]]);
    expect(fake.count(ROUTES.v3Mempool)).toBe(1);
    expect((await store.readMempoolState())?.tracked).toEqual([]);
  });
});
