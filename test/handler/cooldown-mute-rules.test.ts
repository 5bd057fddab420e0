// Cooldowns and mutes through the Lambda handler: a fake Hiro server, DynamoDB on dynalite, SNS mocked at the
// client. The cooldown's state rides on the cursor item between invocations and its summary is published
// once; a mute's matches are kept in DynamoDB as muted records and never published.
import { SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { coinbase, createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const treasury = fakeAddress('treasury');
const relayer = fakeAddress('relayer');
const sns = mockClient(SNSClient);
const T0 = 1_790_000_000;
const MUTED_UNTIL = T0 + 3_600;

describe('the handler with a cooldown and a mute', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-state',
    beforeColdStart: () => fake.chain.mine([], { time: T0 }),
    watchConfig: {
      network: 'mainnet',
      transfers: [
        { name: 'Treasury out', asset: 'stx', from: [treasury], cooldownMinutes: 5 },
        { name: 'Relayer in', asset: 'stx', to: [relayer], mutedUntil: new Date(MUTED_UNTIL * 1000).toISOString() },
      ],
      startHeight: 1,
    },
  });
  const { handler } = lambda;

  const store = () => createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
  const alertsOf = (entries: PublishBatchRequestEntry[]) => entries.map(alertOf);

  it('keeps a cooldown on the cursor item between invocations and publishes its one summary', async () => {
    const first = fake.chain.mine([transfer({ from: treasury, to: fakeAddress('x'), amount: 1 })], { time: T0 + 10 });
    const held = fake.chain.mine(
      [2, 3, 4].map((amount) => transfer({ from: treasury, to: fakeAddress('x'), amount })),
      { time: T0 + 60 },
    );
    await handler({}, lambdaContext('quiet-1'));
    expect(alertsOf(lambda.published).map((a) => a.key)).toEqual([`token_transfer:${first.txs[0]!.txId}`]);
    const startedBy = lambda.published[0];
    expect((await store().readCursor())?.quiet?.cooldowns).toEqual([expect.objectContaining({ rule: 'Treasury out', held: 3, minutes: 5 })]);
    expect(await store().getAlertRecord(`token_transfer:${held.txs[1]!.txId}`)).toMatchObject({ state: 'held' });

    fake.chain.mine([coinbase()], { time: T0 + 10 + 300 });
    await handler({}, lambdaContext('quiet-2'));
    await handler({}, lambdaContext('quiet-3'));
    const summaries = alertsOf(lambda.published).filter((a) => a.type === 'cooldown_summary');
    expect(summaries).toEqual([expect.objectContaining({ rule: 'Treasury out', held: 3, started_by: `token_transfer:${first.txs[0]!.txId}` })]);
    // Filtered like the alert that started the cooldown: a subscriber who got that one gets its summary.
    const filteredOn = (e: PublishBatchRequestEntry | undefined) =>
      Object.fromEntries(['rule', 'severity', 'address', 'asset_id', 'contract_id'].map((name) => [name, e?.MessageAttributes?.[name]?.StringValue]));
    const summaryEntry = lambda.published.find((e) => e.MessageAttributes?.type?.StringValue === 'cooldown_summary');
    expect(filteredOn(summaryEntry)).toEqual(filteredOn(startedBy));
    expect(filteredOn(summaryEntry).address).toBeDefined();
    expect((await store().readCursor())?.quiet?.cooldowns.filter((c) => c.d === undefined) ?? []).toEqual([]);
  });

  it("keeps a muted rule's matches in DynamoDB as muted and publishes none of them", async () => {
    const muted = fake.chain.mine([transfer({ to: relayer, amount: 7 })], { time: T0 + 400 });
    await handler({}, lambdaContext('quiet-4'));
    expect(lambda.published).toEqual([]);
    const record = await store().getAlertRecord(`token_transfer:${muted.txs[0]!.txId}`);
    expect(record).toMatchObject({ state: 'muted', alert: expect.objectContaining({ rule: 'Relayer in' }) });
    expect(record?.reason).toContain('muted until');
    expect((await store().readCursor())?.quiet?.mutes).toEqual([expect.objectContaining({ rule: 'Relayer in', held: 1 })]);
  });
});
