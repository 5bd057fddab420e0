// The doorbell end to end: the function URL's handler over the fake Hiro server and DynamoDB on dynalite,
// the secret mocked at Secrets Manager. A signed ring runs one cycle of the watcher; a refused ring starts
// nothing and writes nothing; a ring during a held lease starts no second cycle and looks once the lease is free.
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PublishCommand, SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { RingResponse } from '../../lambda/doorbell';
import { MAX_RING_BODY_BYTES, ringSignature } from '../../lambda/runtime/doorbell-ring';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, forgetWarmState, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const DOORBELL_SECRET = 'doorbell-secret-9b2e71';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stacks-watch/doorbell-AbCdEf';
const alice = fakeAddress('alice');

const sns = mockClient(SNSClient);
const secrets = mockClient(SecretsManagerClient);

type Doorbell = (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<RingResponse>;

function ring(options: { secret?: string; timestamp?: number; body?: string } = {}) {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  return {
    requestContext: { http: { method: 'POST' } },
    headers: { 'x-doorbell-timestamp': timestamp, 'x-doorbell-signature': ringSignature(options.secret ?? DOORBELL_SECRET, timestamp) },
    body: options.body ?? '{"look":"now"}',
    isBase64Encoded: false,
  };
}

describe('the doorbell', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-doorbell',
    beforeColdStart: () => fake.chain.mineEmpty(2),
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 2 },
    extra: { DOORBELL_SECRET_ARN: SECRET_ARN },
  });
  let doorbell: Doorbell;
  beforeAll(async () => {
    forgetWarmState();
    doorbell = (await import('../../lambda/doorbell')).handler as unknown as Doorbell;
  });
  beforeEach(() => {
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves({ SecretString: DOORBELL_SECRET });
  });

  const store = () => createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
  const tableItems = async () => (await lambda.dynamo.client.send(new ScanCommand({ TableName: lambda.dynamo.tableName, ConsistentRead: true }))).Items;

  it('runs one cycle of the watcher on a signed ring and alerts the new block once', async () => {
    const block = fake.chain.mine([transfer({ to: alice, amount: 1_000_000 })]);
    const response = await doorbell(ring(), lambdaContext('ring-1'));
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ message: 'looked' });
    expect(lambda.published.map((e) => alertOf(e).key)).toEqual([`token_transfer:${block.txs[0]!.txId}`]);
    expect(await store().readCursor()).toMatchObject({ height: block.height });
    // The same ring again finds nothing new: the cursor, not the ring, says what was alerted.
    const again = await doorbell(ring(), lambdaContext('ring-2'));
    expect(again.statusCode).toBe(200);
    expect(lambda.published).toHaveLength(1);
  });

  it.each([
    ['no signature', () => ({ ...ring(), headers: {} }), 401],
    ['a signature under another secret', () => ring({ secret: 'guessed' }), 401],
    ['a stale timestamp', () => ring({ timestamp: Math.floor(Date.now() / 1000) - 3600 }), 401],
    ['a body over the ceiling', () => ring({ body: 'x'.repeat(MAX_RING_BODY_BYTES + 1) }), 413],
  ])('refuses a ring with %s, starting no cycle and writing no state', async (_what, event, status) => {
    fake.chain.mine([transfer({ to: alice, amount: 7 })]);
    const before = await tableItems();
    const requestsBefore = fake.requests.length;
    const response = await doorbell(event(), lambdaContext('refused'));
    expect(response.statusCode).toBe(status);
    expect(lambda.published).toEqual([]);
    expect(fake.requests.length).toBe(requestsBefore);
    expect(await tableItems()).toEqual(before);
  });

  it('refuses every ring while the secret is blank, rather than accept signatures under an empty key', async () => {
    // Another secret (the first one is cached for the container), holding a blank value.
    secrets.on(GetSecretValueCommand, { SecretId: `${SECRET_ARN}-blank` }).resolves({ SecretString: ' ' });
    process.env.DOORBELL_SECRET_ARN = `${SECRET_ARN}-blank`;
    const response = await doorbell(ring({ secret: '' }), lambdaContext('blank')).finally(() => {
      process.env.DOORBELL_SECRET_ARN = SECRET_ARN;
    });
    expect(response.statusCode).toBe(503);
    expect(lambda.published).toEqual([]);
  });

  it('starts no second cycle during a held lease, answers 202, and leaves the block to the holder', async () => {
    const block = fake.chain.mine([transfer({ to: alice, amount: 3 })]);
    const cursorBefore = await store().readCursor();
    expect(await store().acquireLease('scheduled-run', Date.now(), 60_000)).toBe(true);
    try {
      // 27 s left: a follow-up wait of at most 2 s (15 s margin, 10 s of work kept for the follow-up).
      const response = await doorbell(ring(), lambdaContext('ring-held', 27_000));
      expect(response.statusCode).toBe(202);
      expect(JSON.parse(response.body).message).toMatch(/a cycle is running/);
      expect(lambda.published).toEqual([]);
      expect(await store().readCursor()).toEqual(cursorBefore);
    } finally {
      await store().releaseLease('scheduled-run');
    }
    const next = await doorbell(ring(), lambdaContext('ring-after'));
    expect(next.statusCode).toBe(200);
    expect(lambda.published.map((e) => alertOf(e).key)).toContain(`token_transfer:${block.txs[0]!.txId}`);
  });

  it('honours the follow-up: a ring during a cycle looks again as soon as the lease is given back', async () => {
    const block = fake.chain.mine([transfer({ to: alice, amount: 4 })]);
    expect(await store().acquireLease('scheduled-run', Date.now(), 60_000)).toBe(true);
    const release = setTimeout(() => void store().releaseLease('scheduled-run'), 1_200);
    try {
      const response = await doorbell(ring(), lambdaContext('ring-follow-up', 40_000));
      expect(response.statusCode).toBe(200);
      const keys = lambda.published.map((e) => alertOf(e).key);
      expect(keys.filter((k) => k === `token_transfer:${block.txs[0]!.txId}`)).toHaveLength(1);
    } finally {
      clearTimeout(release);
    }
  });
});

describe('a ring beside the self-watch', () => {
  const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-doorbell-watch',
    watchConfig: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    extra: { DOORBELL_SECRET_ARN: SECRET_ARN, OPS_TOPIC_ARN, LAG_ALARM_SECONDS: '60' },
  });
  let doorbell: Doorbell;
  let now = Date.parse('2026-11-26T12:00:00Z');
  const notices: PublishCommandInput[] = [];
  beforeAll(async () => {
    forgetWarmState();
    doorbell = (await import('../../lambda/doorbell')).handler as unknown as Doorbell;
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves({ SecretString: DOORBELL_SECRET });
    sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
      notices.push(input);
      return { MessageId: `ops-${notices.length}` };
    });
  });
  afterEach(() => vi.useRealTimers());

  it("judges no stall on a ring: only the schedule's tick pages the operations topic", async () => {
    fake.chain.mine([], { time: Math.floor(now / 1000) });
    expect((await doorbell(ring(), lambdaContext('ring-first'))).statusCode).toBe(200);
    vi.setSystemTime((now += 120_000));
    expect((await doorbell(ring(), lambdaContext('ring-stalled'))).statusCode).toBe(200);
    expect(notices.filter((n) => /Notice kind: watcher-/.test(n.Message!))).toEqual([]);
    // The same stall, seen by a tick, pages: the ring's silence is its own, not the setup's.
    await lambda.handler({}, lambdaContext('tick'));
    expect(notices.filter((n) => n.Message!.endsWith('Notice kind: watcher-stalled'))).toHaveLength(1);
  });
});
