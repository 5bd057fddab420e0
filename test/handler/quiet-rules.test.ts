// Cooldowns and mutes through the Lambda handler: a fake Hiro server, DynamoDB on dynalite, SNS mocked at the
// client. The cooldown's state rides on the cursor item between invocations and its summary is published
// once; a mute's matches are kept in DynamoDB as muted records and never published.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { coinbase, createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const treasury = fakeAddress('treasury');
const relayer = fakeAddress('relayer');
const sns = mockClient(SNSClient);
const T0 = 1_790_000_000;
const MUTED_UNTIL = T0 + 3_600;

describe('the handler with a cooldown and a mute', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  let published: PublishBatchRequestEntry[] = [];
  let handler: (event: unknown, context: Context) => Promise<CycleSummary>;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-state' });
    fake.chain.mine([], { time: T0 });
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({
        network: 'mainnet',
        transfers: [
          { name: 'Treasury out', asset: 'stx', from: [treasury], cooldownMinutes: 5 },
          { name: 'Relayer in', asset: 'stx', to: [relayer], mutedUntil: new Date(MUTED_UNTIL * 1000).toISOString() },
        ],
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
    published = [];
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      published.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    captureOutput();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const store = () => createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
  const alertsOf = (entries: PublishBatchRequestEntry[]) => entries.map((e) => JSON.parse(JSON.parse(e.Message!).default) as Record<string, unknown>);

  it('keeps a cooldown on the cursor item between invocations and publishes its one summary', async () => {
    const first = fake.chain.mine([transfer({ from: treasury, to: fakeAddress('x'), amount: 1 })], { time: T0 + 10 });
    const held = fake.chain.mine([2, 3, 4].map((amount) => transfer({ from: treasury, to: fakeAddress('x'), amount })), { time: T0 + 60 });
    await handler({}, lambdaContext('quiet-1'));
    expect(alertsOf(published).map((a) => a.key)).toEqual([`token_transfer:${first.txs[0]!.txId}`]);
    const startedBy = published[0];
    expect((await store().readCursor())?.quiet?.cooldowns).toEqual([expect.objectContaining({ rule: 'Treasury out', held: 3, minutes: 5 })]);
    expect(await store().getAlertRecord(`token_transfer:${held.txs[1]!.txId}`)).toMatchObject({ state: 'held' });

    fake.chain.mine([coinbase()], { time: T0 + 10 + 300 });
    await handler({}, lambdaContext('quiet-2'));
    await handler({}, lambdaContext('quiet-3'));
    const summaries = alertsOf(published).filter((a) => a.type === 'cooldown_summary');
    expect(summaries).toEqual([expect.objectContaining({ rule: 'Treasury out', held: 3, started_by: `token_transfer:${first.txs[0]!.txId}` })]);
    // Filtered like the alert that started the cooldown: a subscriber who got that one gets its summary.
    const filteredOn = (e: PublishBatchRequestEntry | undefined) =>
      Object.fromEntries(['rule', 'severity', 'address', 'asset_id', 'contract_id'].map((name) => [name, e?.MessageAttributes?.[name]?.StringValue]));
    const summaryEntry = published.find((e) => e.MessageAttributes?.type?.StringValue === 'cooldown_summary');
    expect(filteredOn(summaryEntry)).toEqual(filteredOn(startedBy));
    expect(filteredOn(summaryEntry).address).toBeDefined();
    expect((await store().readCursor())?.quiet?.cooldowns.filter((c) => c.d === undefined) ?? []).toEqual([]);
  });

  it('keeps a muted rule\'s matches in DynamoDB as muted and publishes none of them', async () => {
    const muted = fake.chain.mine([transfer({ to: relayer, amount: 7 })], { time: T0 + 400 });
    await handler({}, lambdaContext('quiet-4'));
    expect(published).toEqual([]);
    const record = await store().getAlertRecord(`token_transfer:${muted.txs[0]!.txId}`);
    expect(record).toMatchObject({ state: 'muted', alert: expect.objectContaining({ rule: 'Relayer in' }) });
    expect(record?.reason).toContain('muted until');
    expect((await store().readCursor())?.quiet?.mutes).toEqual([expect.objectContaining({ rule: 'Relayer in', held: 1 })]);
  });
});
