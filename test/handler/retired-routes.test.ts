// A warm container remembers the routes Hiro retired (410 Gone): the handler builds a new Hiro client every
// invocation, and the container's memory sends the later ones straight to the replacement, so a retired route
// costs one request in a container's life, not one an invocation, and the fetch plan prices events as they now cost.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { DEPRECATED_CHAIN_READS, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, stxTransferEvent } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const alice = fakeAddress('alice');
const custodian = fakeContractId('custodian');
const sns = mockClient(SNSClient);
const watchConfig = { network: 'mainnet', addresses: [alice], startHeight: 1 };

/** A call paying alice from a contract: only its events say so, so a run reads them. */
const payAlice = (amount: number) => contractCall({ contractId: custodian, events: [stxTransferEvent(custodian, alice, amount)] });

function chainPayingAlice() {
  const fake = createFakeHiro();
  for (let i = 0; i < 3; i++) fake.chain.mine([payAlice(10 + i)]);
  fake.retire(...DEPRECATED_CHAIN_READS);
  return fake;
}

describe('a warm container reading per subject once /tx/multiple answers 410', () => {
  const fake = chainPayingAlice();
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-retired-per-subject', watchConfig, extra: { FETCH_WAY: 'per-subject' } });

  it('asks the retired route in its first invocation only; the later ones read the events from the v3 route', async () => {
    await lambda.handler({}, lambdaContext('run-retired-1'));
    expect(fake.count(ROUTES.txMultiple)).toBe(1);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);

    for (const [i, amount] of [13, 14].entries()) {
      fake.chain.mine([payAlice(amount)]);
      const summary = await lambda.handler({}, lambdaContext(`run-retired-${i + 2}`));
      expect(summary.fetchPlan).toMatchObject({ way: 'per-subject' });
    }

    expect(fake.count(ROUTES.txMultiple)).toBe(1);
    expect(fake.count(ROUTES.v3TransactionEvents)).toBe(5);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14']);
  });
});

describe('a warm container following the plan once /tx/multiple answers 410', () => {
  const fake = chainPayingAlice();
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-retired-auto', watchConfig });

  it('prices events at a request each in its later invocations and reads one new block per subject, not by the block scan', async () => {
    await lambda.handler({}, lambdaContext('run-auto-1'));
    expect(fake.count(ROUTES.txMultiple)).toBe(1);

    // One block: while /tx/multiple answers, the block scan costs no more than one subject (fetch-plan.ts).
    fake.chain.mine([payAlice(13)]);
    const second = await lambda.handler({}, lambdaContext('run-auto-2'));

    expect(second.fetchPlan).toMatchObject({ way: 'per-subject', asked: 'auto' });
    expect(fake.count(ROUTES.txMultiple)).toBe(1);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13']);
  });
});
