// The Lambda handler end to end: a fake Hiro server, DynamoDB on dynalite (reached through the standard
// AWS_ENDPOINT_URL_DYNAMODB variable, as any local stand-in would be), SNS and Secrets Manager mocked at
// the client. Several invocations over a growing chain.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PublishBatchCommand, PublishCommand, SNSClient, type PublishBatchRequestEntry, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, transfer } from '../support/fake-hiro';
import { alertOf, importHandler, lambdaOnDynalite, recordPublishes, logLinesOf } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';
import { drawShortestBackoff } from '../support/shortest-backoff';

const API_KEY = 'hiro-key-7f3a9c1e5b';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stacks-watch/api-key-AbCdEf';
const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const alice = fakeAddress('alice');
const vault = fakeContractId('vault');

const sns = mockClient(SNSClient);
const secrets = mockClient(SecretsManagerClient);

// The failed runs retry as in production, without waiting out the backoff.
drawShortestBackoff();

describe('the Lambda handler over a growing chain', () => {
  const fake = createFakeHiro({ apiKey: { key: API_KEY, required: true } });
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-state',
    beforeColdStart: () => fake.chain.mineEmpty(2),
    watchConfig: { network: 'mainnet', contracts: [vault], addresses: [alice], contractLogs: [{ contractId: vault }], startHeight: 2 },
    extra: { STACKS_API_KEY_SECRET_ARN: SECRET_ARN },
    keepPublished: true,
  });
  const { handler } = lambda;
  beforeEach(() => {
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves({ SecretString: API_KEY });
  });

  const alertKeys = () => lambda.published.map((e) => alertOf(e).key);

  it('publishes each alert once across invocations and moves the cursor in DynamoDB', async () => {
    const b3 = fake.chain.mine([transfer({ to: alice, amount: 2_000_000 }), contractCall({ contractId: vault, logs: ['opened'] })]);
    const first = await handler({}, lambdaContext('run-1'));
    expect(first.blocksScanned).toBe(2); // heights 2 and 3
    expect(first.cursor?.height).toBe(3);

    const b4 = fake.chain.mine([transfer({ to: alice, amount: 5 })]);
    const second = await handler({}, lambdaContext('run-2'));
    const third = await handler({}, lambdaContext('run-3')); // nothing new
    expect(second.blocksScanned).toBe(1);
    expect(third.blocksScanned).toBe(0);

    expect(alertKeys()).toEqual([
      `contract_status:${vault}:1`,
      `token_transfer:${b3.txs[0]!.txId}`,
      `contract_log:${b3.txs[1]!.txId}:0`,
      `token_transfer:${b4.txs[0]!.txId}`,
    ]);
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    expect(await store.readCursor()).toMatchObject({ height: 4, hash: fake.chain.tip!.hash });
  });

  it('sends the API key from the secret and never writes it to any output', async () => {
    fake.chain.mine([transfer({ to: alice, amount: 9 })]);
    await handler({}, lambdaContext('run-4'));
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(API_KEY);
    expect(lambda.output.join('')).not.toContain(API_KEY);
    expect(lambda.output.join('')).not.toContain(API_KEY.slice(4));
  });

  it('tells the operator, once, when the API keeps answering 429', async () => {
    fake.chain.mine([]);
    fake.faults.times(7, { status: 429, headers: { 'retry-after': '0' } });
    // The seven 429s land on whichever requests are in flight: spread over two or more, every request ends
    // answered; five in a row on one, that request gives up and the run fails with it. The notice comes either way.
    await handler({}, lambdaContext('run-throttled')).catch((error: Error) => expect(error.name).toBe('HiroRateLimitedError'));
    const notices = logLinesOf(lambda.output).filter((l) => l.operatorNotice === 'rate-limited');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toMatch(/429/);
  });

  const jsonLines = () => logLinesOf(lambda.output);
  const metricNamesOf = (lines: Record<string, unknown>[]) =>
    lines
      .filter((l) => '_aws' in l)
      .flatMap((l) => (l._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map((m) => m.Name));

  it('sends by default only the counters that are not zero, each with the service dimension', async () => {
    fake.chain.mine([transfer({ to: alice, amount: 10 })]);
    await handler({}, lambdaContext('run-5'));
    const lines = jsonLines();
    expect(new Set(metricNamesOf(lines))).toEqual(new Set(['AlertsPublished']));
    const emf = lines.filter((l) => '_aws' in l);
    expect(emf.every((l) => l.service === 'stacks-watch')).toBe(true);
    expect(emf.find((l) => 'AlertsPublished' in l)).toMatchObject({ type: 'token_transfer', AlertsPublished: 1 });
  });

  it("writes every figure the lean metrics leave out into the run's structured log lines", async () => {
    fake.chain.mine([transfer({ to: alice, amount: 11 })]);
    await handler({}, lambdaContext('run-6'));
    const done = jsonLines().find((l) => l.message === 'invocation done' && l.runId === 'run-6')!;
    expect(done.summary).toMatchObject({ blocksScanned: 1, lagBlocks: 0, contractsChecked: 1, durationMs: expect.any(Number) });
    expect(done.api).toMatchObject({ requests: expect.any(Number), throttled: 0, errors: 0 });
    expect((done.api as { requests: number }).requests).toBeGreaterThan(0);
  });

  it('sends every metric on every run with DETAILED_METRICS=true', async () => {
    process.env.DETAILED_METRICS = 'true';
    try {
      fake.chain.mine([]);
      await handler({}, lambdaContext('run-detailed'));
    } finally {
      delete process.env.DETAILED_METRICS;
    }
    const names = metricNamesOf(jsonLines());
    for (const name of [
      'BlocksScanned',
      'ChainLagBlocks',
      'ChainLagSeconds',
      'ApiRequests',
      'ApiThrottled',
      'ApiErrors',
      'CycleDurationMs',
      'ContractsWatched',
    ]) {
      expect(names).toContain(name);
    }
  });

  it("counts an empty block's expected 404 as an API request, not an API error", async () => {
    process.env.DETAILED_METRICS = 'true';
    try {
      fake.chain.mine([]);
      await handler({}, lambdaContext('run-empty'));
    } finally {
      delete process.env.DETAILED_METRICS;
    }
    const emf = jsonLines().find((l) => 'ApiRequests' in l)!;
    expect(emf.ApiRequests).toBeGreaterThan(0);
    expect(emf.ApiErrors).toBe(0);
  });

  it('tells the ops topic when the same block fails three invocations in a row, and goes on once it passes', async () => {
    process.env.OPS_TOPIC_ARN = OPS_TOPIC_ARN;
    const notices: PublishCommandInput[] = [];
    sns.on(PublishCommand).callsFake((input: PublishCommandInput) => {
      notices.push(input);
      return { MessageId: `ops-${notices.length}` };
    });
    // SNS fails on its side for the block's alert, every attempt of every invocation.
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => ({
      Successful: [],
      Failed: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, Code: 'InternalError', SenderFault: false, Message: 'try later' })),
    }));
    const block = fake.chain.mine([transfer({ to: alice, amount: 77 })]);
    try {
      for (const run of [1, 2]) await expect(handler({}, lambdaContext(`run-stuck-${run}`))).rejects.toThrow(/InternalError/);
      expect(notices).toEqual([]);
      await expect(handler({}, lambdaContext('run-stuck-3'))).rejects.toThrow(/InternalError/);
    } finally {
      delete process.env.OPS_TOPIC_ARN;
    }

    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ TopicArn: OPS_TOPIC_ARN, Subject: expect.stringContaining(`block ${block.height} (3 runs in a row)`) });
    expect(notices[0]!.Message).toContain('InternalError');
    recordPublishes(sns, { into: lambda.published }); // SNS takes them again
    const summary = await handler({}, lambdaContext('run-unstuck'));
    expect(summary.cursor?.height).toBe(block.height);
  });

  it('fails the invocation before touching state when the watch config is invalid', async () => {
    const saved = process.env.WATCH_CONFIG;
    process.env.WATCH_CONFIG = JSON.stringify({ network: 'mainnet', addresses: ['SP000'] });
    const fresh = await importHandler();
    const requestsBefore = fake.requests.length;
    try {
      await expect(fresh({}, lambdaContext('run-bad'))).rejects.toThrow(/addresses\[0\]/);
    } finally {
      process.env.WATCH_CONFIG = saved;
    }
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it('names the missing variable when the environment is incomplete', async () => {
    const saved = process.env.TOPIC_ARN;
    delete process.env.TOPIC_ARN;
    const fresh = await importHandler();
    try {
      await expect(fresh({}, lambdaContext('run-env'))).rejects.toThrow(/TOPIC_ARN is not set/);
      expect(lambda.output.join('')).toMatch(/"level":"ERROR".*TOPIC_ARN is not set/);
    } finally {
      process.env.TOPIC_ARN = saved;
    }
  });
});
