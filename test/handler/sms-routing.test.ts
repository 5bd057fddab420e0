// Named rules, severity and the per-run SMS budget through the Lambda handler end to end: a fake Hiro
// server, DynamoDB on dynalite, SNS mocked at the client. What SNS is asked to publish decides who gets what:
// the `sms` attribute routes texts, held alerts and the digest through the subscriptions' filter policies.
import { SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { SAFETY_MARGIN_MS } from '../../lambda/handler';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const treasury = fakeAddress('treasury');
const sns = mockClient(SNSClient);

describe('the handler pages phones within the per-run SMS budget', () => {
  const fake = createFakeHiro();
  let refuseDigest = false;
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-state',
    beforeColdStart: () => fake.chain.mineEmpty(2),
    watchConfig: { network: 'mainnet', addresses: [treasury], addressesRule: { name: 'Treasury inflow', severity: 'critical' }, startHeight: 2, smsPerRun: 2 },
    // SNS refuses the whole call (as for a topic policy that denies it) while `refuseDigest` is set.
    refuse: (entries) =>
      refuseDigest && entries.some((e) => e.MessageAttributes?.sms?.StringValue === 'digest')
        ? Object.assign(new Error('not authorized'), { name: 'AuthorizationErrorException', $fault: 'client' })
        : undefined,
  });
  const { handler } = lambda;
  afterEach(() => {
    refuseDigest = false;
  });

  const attribute = (e: PublishBatchRequestEntry, name: string) => e.MessageAttributes?.[name]?.StringValue;
  const store = () => createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });

  it('texts two alerts, holds the rest for email, and sends one digest, each carrying its rule and severity', async () => {
    const block = fake.chain.mine([1, 2, 3, 4, 5].map((amount) => transfer({ to: treasury, amount: amount * 1_000_000 })));
    await handler({}, lambdaContext('sms-1'));

    expect(lambda.published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held', 'held', 'held', 'digest']);
    const alerts = lambda.published.slice(0, 5);
    expect(alerts.map((e) => [attribute(e, 'rule'), attribute(e, 'severity')])).toEqual(Array(5).fill(['Treasury inflow', 'critical']));
    expect(alerts[0]!.Subject).toMatch(/^\[stacks-watch\] Treasury inflow: 1 STX to /);
    expect(JSON.parse(JSON.parse(alerts[0]!.Message!).default)).toMatchObject({ rule: 'Treasury inflow', severity: 'critical' });

    const digest = lambda.published[5]!;
    expect(digest.Subject).toBe(`[stacks-watch] 3 more alerts, block ${block.height}: see email`);
    expect(JSON.parse(digest.Message!).sms).toBe(`stacks-watch: 3 more alerts, block ${block.height}: see email`);
    expect(attribute(digest, 'severity')).toBe('critical');
    expect(await store().readRecord('smsTally')).toBeNull();

    await handler({}, lambdaContext('sms-2'));
    expect(lambda.published).toHaveLength(6); // no digest again
  });

  it('keeps an unsent digest in DynamoDB and sends it, once, on the next invocation', async () => {
    fake.chain.mine([6, 7, 8].map((amount) => transfer({ to: treasury, amount })));
    refuseDigest = true;
    await expect(handler({}, lambdaContext('sms-3'))).rejects.toThrow(/could not be published/);
    expect(lambda.published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held']);
    expect(await store().readRecord('smsTally')).toMatchObject({ held: { counts: { critical: 1 } } });

    refuseDigest = false;
    await handler({}, lambdaContext('sms-4'));
    await handler({}, lambdaContext('sms-5'));
    expect(lambda.published.map((e) => attribute(e, 'sms'))).toEqual(['text', 'text', 'held', 'digest']);
    expect(await store().readRecord('smsTally')).toBeNull();
  });
});
