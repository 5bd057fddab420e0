// The pending rules on the Lambda path: the handler against the fake Hiro API's mempool, DynamoDB on dynalite
// (the mempool state is an item beside the cursor), SNS mocked at the client. A waiting call is published once
// across invocations, and its mined alert names the pending one. Each run's log lines say how it read the mempool,
// at what estimated cost and why, as they say its fetch plan.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
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

describe('the Lambda handler logs how the pending rules read the mempool', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-pending-read-log',
    beforeColdStart: () => fake.chain.mine([coinbase()]),
    watchConfig: { network: 'mainnet', calls: [{ contractId: vault, functions: ['set-owner'], pending: true }], startHeight: 1 },
    // The `cycle done` line is at debug on the Lambda (`invocation done` carries the same summary at info).
    extra: { POWERTOOLS_LOG_LEVEL: 'DEBUG' },
  });
  /** Waiting transfers nobody watches: more than a list page between two runs. */
  const busy = (round: number) => {
    for (let i = 0; i < 60; i++) fake.chain.submit(transfer({ from: fakeAddress(`user-${round}-${i}`), to: attacker, amount: i + 1 }));
  };
  /** The last line logged with this message. */
  const logged = (message: string) =>
    lambda.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .findLast((line) => line.message === message);

  it('says in the `cycle done` and `invocation done` lines which way it read the mempool, the requests each way and why, beside the fetch plan', async () => {
    for (const [round, run] of ['run-list-1', 'run-list-2'].entries()) {
      busy(round);
      await lambda.handler({}, lambdaContext(run));
    }
    busy(2);
    // A block to scan, so the run makes a fetch plan too.
    fake.chain.mine([coinbase()]);
    fake.clearLog();
    const summary = await lambda.handler({}, lambdaContext('run-principal'));

    const read = {
      way: 'principals',
      principals: 1,
      reason: '1 principal route cost less than the 2 pages the list took a run',
      estimate: { principals: 1, list: 2 },
    };
    expect(summary.mempoolRead).toEqual(read);
    expect(fake.count(ROUTES.principalMempool)).toBe(1);
    expect(fake.count(ROUTES.v3Mempool)).toBe(0);
    const cycle = logged('cycle done');
    expect(cycle).toMatchObject({ level: 'DEBUG', mempoolRead: read });
    expect(cycle).toHaveProperty('fetchPlan');
    expect(logged('invocation done')).toMatchObject({ level: 'INFO', summary: { mempoolRead: read } });
  });
});
