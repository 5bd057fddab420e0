// FETCH_WAY (deploy.json's fetchWay) on the Lambda path: the real handler over the fake API with every
// deprecated route answering 410 and DynamoDB on dynalite. With `auto`, or left unset (auto is the default), the
// handler's run reads a tracked address per subject; `block-scan` keeps the block scan; a way it does not know
// fails the invocation by name.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { DEPRECATED_CHAIN_READS, createFakeHiro, fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const alice = fakeAddress('alice');
const sns = mockClient(SNSClient);
const watchConfig = { network: 'mainnet', addresses: [alice], startHeight: 1 };

/** Three blocks paying alice, on an API whose deprecated routes are gone. */
function chainPayingAlice() {
  const fake = createFakeHiro();
  for (let i = 0; i < 3; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
  fake.retire(...DEPRECATED_CHAIN_READS);
  return fake;
}

describe('the handler with FETCH_WAY=auto', () => {
  const fake = chainPayingAlice();
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-fetch-way-auto', watchConfig, extra: { FETCH_WAY: 'auto' } });

  it("reads the tracked address's transactions per subject and alerts each transfer once", async () => {
    const summary = await lambda.handler({}, lambdaContext('run-auto'));

    expect(summary.fetchPlan).toMatchObject({ way: 'per-subject', asked: 'auto' });
    expect(fake.count(ROUTES.principalTransactions)).toBeGreaterThan(0);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });
});

describe('the handler without FETCH_WAY', () => {
  const fake = chainPayingAlice();
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-fetch-way-unset', watchConfig });

  it("follows the plan (auto, the default): the tracked address's transactions are read per subject", async () => {
    const summary = await lambda.handler({}, lambdaContext('run-unset'));

    expect(summary.fetchPlan).toMatchObject({ way: 'per-subject', asked: 'auto' });
    expect(fake.count(ROUTES.principalTransactions)).toBeGreaterThan(0);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });

  it('fails an invocation whose FETCH_WAY is not a way, naming the variable, before reading the chain', async () => {
    fake.clearLog();
    process.env.FETCH_WAY = 'subjects';
    try {
      await expect(lambda.handler({}, lambdaContext('run-bad'))).rejects.toThrow(/FETCH_WAY must be block-scan, auto, per-subject, got "subjects"/);
    } finally {
      delete process.env.FETCH_WAY;
    }
    expect(fake.count(ROUTES.tip) + fake.count(ROUTES.v3Blocks)).toBe(0);
  });
});

describe('the handler with FETCH_WAY=block-scan', () => {
  const fake = chainPayingAlice();
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-fetch-way-scan', watchConfig, extra: { FETCH_WAY: 'block-scan' } });

  it('keeps the block scan: no per-subject route is read', async () => {
    const summary = await lambda.handler({}, lambdaContext('run-scan'));

    expect(summary.fetchPlan).toBeUndefined();
    expect(fake.count(ROUTES.principalTransactions)).toBe(0);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });
});

describe('a warm container on an API without the per-subject routes', () => {
  // API 9.0.x-like: the deprecated routes still answer, the principal's transactions answer 404.
  const fake = createFakeHiro({ subjectRoutes: 'absent' });
  for (let i = 0; i < 3; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-fetch-way-missing', watchConfig, extra: { FETCH_WAY: 'per-subject' } });

  it('asks the missing route once, then reads by the block scan in its later invocations, saying why', async () => {
    const first = await lambda.handler({}, lambdaContext('run-missing-1'));
    expect(first.fetchPlan).toMatchObject({ way: 'block-scan', asked: 'per-subject' });
    expect(fake.count(ROUTES.principalTransactions)).toBe(1);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12']);

    fake.chain.mine([transfer({ to: alice, amount: 13 })]);
    const second = await lambda.handler({}, lambdaContext('run-missing-2'));
    expect(second.fetchPlan?.reason).toMatch(/answered 404.*asked again at/);
    expect(fake.count(ROUTES.principalTransactions)).toBe(1);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13']);
  });
});

describe('a warm container on an API without the v3 block list', () => {
  // API before 9.7.0: the per-subject header chain is missing, the v2 routes answer.
  const fake = createFakeHiro({ v3BlockShape: 'absent' });
  for (let i = 0; i < 3; i++) fake.chain.mine([transfer({ to: alice, amount: 10 + i })]);
  const lambda = lambdaOnDynalite<CycleSummary>({ fake, sns, tableName: 'stacks-watch-fetch-way-no-v3-list', watchConfig });

  it('takes its later invocations’ tip from the tip route without asking the missing list again', async () => {
    await lambda.handler({}, lambdaContext('run-no-list-1'));
    const asked = fake.count(ROUTES.v3Blocks);
    expect(asked).toBeGreaterThan(0);

    for (const [i, amount] of [13, 14].entries()) {
      fake.chain.mine([transfer({ to: alice, amount })]);
      const summary = await lambda.handler({}, lambdaContext(`run-no-list-${i + 2}`));
      expect(summary.fetchPlan?.reason).toMatch(/has no GET \/extended\/v3\/blocks/);
    }

    expect(fake.count(ROUTES.v3Blocks)).toBe(asked);
    expect(lambda.published.map(alertOf).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14']);
  });
});
