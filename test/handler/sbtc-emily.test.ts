// Emily polled on the Lambda path: the handler builds Emily's port from EMILY_API_URL (the network's server
// otherwise), the sBTC lifecycle stage asks it once a Bitcoin block, and a deposit Emily lists that is never
// minted is alerted through SNS at the Bitcoin block its deadline falls on, once.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { SBTC_MAINNET_DEPLOYER } from '../../lambda/core/packs/sbtc-bridge';
import { createFakeEmily, depositJson, type RunningFakeEmily } from '../support/fake-emily';
import { createFakeHiro } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const sns = mockClient(SNSClient);
const emily = createFakeEmily();
let emilyServer: RunningFakeEmily | undefined;
afterAll(async () => emilyServer?.close());

describe('Emily on the Lambda path', () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-sbtc-emily',
    keepPublished: true,
    watchConfig: {
      network: 'mainnet',
      contractLogs: [{ contractId: `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`, where: { topic: 'withdrawal-reject' } }],
      sbtcLifecycle: {},
      startHeight: 1,
    },
    beforeColdStart: async () => {
      emilyServer = await emily.start();
      fake.chain.mine([]);
    },
    extra: () => ({ EMILY_API_URL: emilyServer!.url }),
  });

  it('asks Emily from the handler and alerts a deposit never minted at its deadline, once', async () => {
    const stuck = depositJson({ seed: 'stuck' });
    emily.putDeposit(stuck);
    await lambda.handler({}, lambdaContext('run-0'));
    expect(emily.count('GET /deposit')).toBe(2);
    for (let block = 1; block <= 5; block++) {
      fake.chain.advanceBitcoin(1);
      fake.chain.newTenure();
      fake.chain.mine([]);
      await lambda.handler({}, lambdaContext(`run-${block}`));
    }
    const keys = lambda.published.map(alertOf).map((a) => a.key);
    expect(keys).toEqual([`sbtc:deposit_late:warning:${stuck.bitcoinTxid}:0`]);
    expect(emily.count('GET /deposit')).toBe(12);
  }, 60_000);
});
