// Named rules, severity and the per-run SMS budget through the Lambda handler end to end: a fake Hiro
// server, DynamoDB on dynalite, SNS mocked at the client. What SNS is asked to publish decides who gets what:
// the `sms` attribute routes texts, held alerts and the digest through the subscriptions' filter policies.
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { SAFETY_MARGIN_MS } from '../../lambda/handler';
import { createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const treasury = fakeAddress('treasury');
const sns = mockClient(SNSClient);

describe('the handler pages phones within the per-run SMS budget', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  let published: PublishBatchRequestEntry[] = [];
  let refuseDigest = false;
  let handler: (event: unknown, context: Context) => Promise<CycleSummary>;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'stacks-watch-state' });
    fake.chain.mine([]);
    fake.chain.mine([]);
    Object.assign(process.env, {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({
        network: 'mainnet',
        addresses: [treasury],
        addressesRule: { name: 'Treasury inflow', severity: 'critical' },
        startHeight: 2,
        smsPerRun: 2,
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
      const entries = input.PublishBatchRequestEntries;
      if (refuseDigest && entries.some((e) => e.MessageAttributes?.sms?.StringValue === 'digest')) {
        throw Object.assign(new Error('not authorized'), { name: 'AuthorizationErrorException', $fault: 'client' });
      }
      published.push(...entries);
      return { Successful: entries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    captureOutput();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    refuseDigest = false;
  });

  const attribute = (e: PublishBatchRequestEntry, name: string) => e.MessageAttributes?.[name]?.StringValue;
  const store = () => createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });

  it('texts two alerts, holds the rest for email, and sends one digest, each carrying its rule and severity', async () => {
    const block = fake.chain.mine([1, 2, 3, 4, 5].map((amount) => transfer({ to: treasury, amount: amount * 1_000_000 })));
    await handler({}, lambdaContext('sms-1'));

    expect(published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held', 'held', 'held', 'digest']);
    const alerts = published.slice(0, 5);
    expect(alerts.map((e) => [attribute(e, 'rule'), attribute(e, 'severity')])).toEqual(Array(5).fill(['Treasury inflow', 'critical']));
    expect(alerts[0]!.Subject).toMatch(/^\[stacks-watch\] Treasury inflow: 1 STX to /);
    expect(JSON.parse(JSON.parse(alerts[0]!.Message!).default)).toMatchObject({ rule: 'Treasury inflow', severity: 'critical' });

    const digest = published[5]!;
    expect(digest.Subject).toBe(`[stacks-watch] 3 more alerts, block ${block.height}: see email`);
    expect(JSON.parse(digest.Message!).sms).toBe(`stacks-watch: 3 more alerts, block ${block.height}: see email`);
    expect(attribute(digest, 'severity')).toBe('critical');
    expect(await store().readSmsTally()).toBeNull();

    await handler({}, lambdaContext('sms-2'));
    expect(published).toHaveLength(6); // no digest again
  });

  it('keeps an unsent digest in DynamoDB and sends it, once, on the next invocation', async () => {
    fake.chain.mine([6, 7, 8].map((amount) => transfer({ to: treasury, amount })));
    refuseDigest = true;
    await expect(handler({}, lambdaContext('sms-3'))).rejects.toThrow(/could not be published/);
    expect(published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held']);
    expect(await store().readSmsTally()).toMatchObject({ counts: { critical: 1 } });

    refuseDigest = false;
    await handler({}, lambdaContext('sms-4'));
    await handler({}, lambdaContext('sms-5'));
    expect(published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held', 'digest']);
    expect(await store().readSmsTally()).toBeNull();
  });

  it('polling, counts the budget per invocation: its polls share the texts and one digest goes out at its end', async () => {
    process.env.POLL_INTERVAL_SECONDS = '1';
    // 2.5 s of work (the safety margin taken off): polls start at 0, 1 and 2 s; blocks arrive between them.
    const mines = [300, 1_300].map((ms, i) =>
      setTimeout(() => fake.chain.mine([1, 2, 3].map((n) => transfer({ to: treasury, amount: 100 * (i + 1) + n }))), ms),
    );
    try {
      const summary = await handler({}, lambdaContext('sms-poll', SAFETY_MARGIN_MS + 2_500));
      expect(summary.alertsPublished).toBe(7);
    } finally {
      mines.forEach(clearTimeout);
      delete process.env.POLL_INTERVAL_SECONDS;
    }
    expect(published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held', 'held', 'held', 'held', 'digest']);
    expect(JSON.parse(JSON.parse(published[6]!.Message!).default)).toMatchObject({ held: { critical: 4 } });
    expect(await store().readSmsTally()).toBeNull();
  }, 20_000);
});
