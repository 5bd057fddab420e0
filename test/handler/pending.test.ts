// The pending rules on the Lambda path: the handler against the fake Hiro API's mempool, DynamoDB on dynalite
// (the mempool state is an item beside the cursor), SNS mocked at the client. A waiting call is published once
// across invocations, and its mined alert names the pending one.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const attacker = fakeAddress('attacker');
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);

describe('the Lambda handler with a pending rule', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite({
    fake,
    sns,
    tableName: 'stacks-watch-pending',
    beforeColdStart: () => fake.chain.mine([coinbase()]),
    watchConfig: {
      network: 'mainnet',
      calls: [{ contractId: vault, functions: ['set-owner'], name: 'Owner change', severity: 'critical', pending: true }],
      startHeight: 1,
    },
  });
  const { handler } = lambda;
  const published = () => lambda.published.map(alertOf);

  it('publishes a waiting call once across invocations, keeps the mempool state in DynamoDB, and names it in the mined alert', async () => {
    const call = fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }));
    await handler({}, lambdaContext('run-1'));
    await handler({}, lambdaContext('run-2'));
    expect(published().map((a) => [a.type, a.args])).toEqual([['pending_call', [attacker]]]);

    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    const state = await store.readRecord('mempool');
    expect(state?.seen).toContain(call.txId);
    expect(state?.tracked.map((t) => [t.txId, t.pendingKey])).toEqual([[call.txId, `pending_call:${call.txId}`]]);

    fake.chain.mine([coinbase(), call as never]);
    fake.clearLog();
    await handler({}, lambdaContext('run-3'));
    expect(
      published()
        .slice(1)
        .map((a) => [a.key, a.pending_key]),
    ).toEqual([[`contract_call:${call.txId}`, `pending_call:${call.txId}`]]);
    expect(fake.count(ROUTES.v3Mempool)).toBe(1);
    expect((await store.readRecord('mempool'))?.tracked).toEqual([]);
  });
});
