// A balance rule on the Lambda path: the handler over DynamoDB on dynalite, SNS mocked at the client. The
// relayer's balance is read once to start, kept in its table item between invocations, and a fee crossing
// the threshold is published once, in the block where it crossed.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const relayer = fakeAddress('relayer');
const bridge = fakeContractId('bridge');
const relay = (fee: number) => ({ ...contractCall({ contractId: bridge, sender: relayer }), feeRate: String(fee) });

const sns = mockClient(SNSClient);

describe('a balance rule in the Lambda, state in DynamoDB', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-balances',
    beforeColdStart: () => fake.chain.setGenesisBalance(relayer, 'stx', 50_006_000),
    // Nothing is held before block 1: the watch starts at block 2, its first check read at block 1.
    watchConfig: {
      network: 'mainnet',
      startHeight: 2,
      balances: [{ name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000', severity: 'critical' }],
    },
  });
  const { handler } = lambda;

  it('keeps the balance in its table item across invocations and publishes the crossing once', async () => {
    fake.chain.mine([coinbase()]);
    fake.chain.mine([relay(3_000)]); // 50,003,000
    await handler({}, lambdaContext('run-1'));
    expect(lambda.published).toEqual([]);

    const crossing = fake.chain.mine([relay(2_000), relay(2_000)]); // 50,001,000, then 49,999,000: the second crossed
    fake.chain.mine([relay(1_000)]); // further below: no second alert
    await handler({}, lambdaContext('run-2'));
    await handler({}, lambdaContext('run-3'));

    const alerts = lambda.published.map(alertOf);
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'balance_threshold',
        crossed: 'below',
        balance: '49999000',
        tx_id: crossing.txs[1]!.txId,
        block_height: crossing.height,
        severity: 'critical',
      }),
    ]);
    expect(lambda.published[0]!.MessageAttributes?.address?.StringValue).toBe(relayer);
    // Read once, at the block before the first: the later invocations started from the stored book.
    expect(fake.count(ROUTES.balances)).toBe(1);
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    const book = await store.readRecord('balances');
    expect(Object.values(book!.deltas.at(-1)!.entries)).toEqual([expect.objectContaining({ balance: '49998000', zone: 'below' })]);
  }, 60_000);
});
