// A pushed watch config writing an amount in the unit of a token only its metadata knows the decimals of
// ("below": "5 ALEX", no `decimals`), on the Lambda path: the handler on dynalite, the config on the S3
// stand-in, the fake Hiro API serving the token metadata route. The decimals are read once through the run's
// client and kept in the state item; an API that cannot answer keeps the last good version without refusing
// the new one; a token the API does not know refuses the version, naming it and the fix.
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, ftTransferEvent, ROUTES } from '../support/fake-hiro';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';
import { alertOf, lambdaOnDynalite, logLinesOf, recordOperatorNotices } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const BUCKET = 'stacks-watch-config';
const KEY = 'watch.json';
const alice = fakeAddress('alice');
const pool = fakeAddress('pool');
const treasury = fakeAddress('treasury');
const alex = `${fakeContractId('token-alex')}::alex`;
const mystery = `${fakeContractId('mystery-token')}::mystery`;

const sns = mockClient(SNSClient);
const base = { network: 'mainnet', addresses: [alice], startHeight: 2 };
const withAlex = { ...base, balances: [{ name: 'pool low', address: pool, asset: alex, below: '5 ALEX' }] };

describe('the handler taking a pushed config whose token amounts need decimals from the token metadata', () => {
  const fake = createFakeHiro();
  let s3: FakeS3;
  const notices: PublishCommandInput[] = [];
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-token-decimals',
    beforeColdStart: async () => {
      s3 = await startFakeS3();
      fake.chain.setGenesisBalance(pool, alex, 600_000_000); // 6 ALEX
      fake.chain.mine([]);
      fake.chain.mine([]);
    },
    extra: () => ({ OPS_TOPIC_ARN, WATCH_CONFIG_BUCKET: BUCKET, WATCH_CONFIG_KEY: KEY, AWS_ENDPOINT_URL_S3: s3.endpoint }),
  });
  const { handler } = lambda;
  const push = (config: unknown) => s3.put(BUCKET, KEY, JSON.stringify(config));
  const runLines = (runId: string) => logLinesOf(lambda.output).filter((l) => l.runId === runId);
  const done = (runId: string) => runLines(runId).find((l) => l.message === 'invocation done');
  const storedDecimals = async () => {
    const { Item } = await DynamoDBDocumentClient.from(lambda.dynamo.client).send(
      new GetCommand({ TableName: lambda.dynamo.tableName, Key: { pk: 'NET#mainnet', sk: 'TOKEN_DECIMALS' } }),
    );
    return Item?.tokens as Record<string, unknown> | undefined;
  };

  afterAll(async () => {
    await s3?.close();
  });
  beforeEach(() => {
    // The refusals of a version only (a throttled or deprecated route has notices of its own).
    recordOperatorNotices(sns, notices, (input) => input.Message?.includes('Notice kind: watch-config-rejected') === true);
  });

  it('keeps the last good version when the metadata API answers 429, refuses nothing, says why once a run, and asks again next run', async () => {
    const v1 = push(base);
    await handler({}, lambdaContext('run-1'));
    expect(done('run-1')).toMatchObject({ watchConfigVersion: v1.versionId });

    // Rate limited for longer than the run has left: the read gives up at once.
    const stop = fake.faults.use((r) => (r.route === ROUTES.tokenMetadata ? { status: 429, headers: { 'retry-after': '50' } } : undefined));
    try {
      push(withAlex);
      for (const runId of ['run-throttled-1', 'run-throttled-2']) {
        await handler({}, lambdaContext(runId));
        expect(done(runId)).toMatchObject({ watchConfigVersion: v1.versionId });
        expect(done(runId)!.watchConfigRejected).toBeUndefined();
        const why = runLines(runId).filter((l) => String(l.message).includes('token metadata'));
        expect(why).toHaveLength(1);
        expect(why[0]).toMatchObject({ level: 'WARN' });
        expect(JSON.stringify(why[0])).toContain(alex);
      }
      expect(notices).toEqual([]);
      expect(fake.count(ROUTES.tokenMetadata)).toBe(2);
    } finally {
      stop();
    }
    expect(await storedDecimals()).toBeUndefined();
  });

  it("reads the decimals once the API answers, keeps them in the state item, and alerts in the token's unit", async () => {
    fake.chain.setTokenMetadata(alex, { decimals: 8, symbol: 'ALEX' });
    const b = fake.chain.mine([contractCall({ contractId: fakeContractId('dex'), events: [ftTransferEvent(alex, pool, treasury, 150_000_000)] })]);
    await handler({}, lambdaContext('run-read'));
    expect(done('run-read')).toMatchObject({ watchConfigVersion: s3.versions(BUCKET, KEY).at(-1)!.versionId });
    expect(await storedDecimals()).toEqual({ [alex]: { decimals: 8, symbol: 'ALEX' } });
    expect(fake.count(ROUTES.tokenMetadata)).toBe(3);
    expect(lambda.published.map(alertOf)).toEqual([
      expect.objectContaining({
        rule: 'pool low',
        asset_id: alex,
        balance: '450000000',
        threshold: '500000000',
        decimals: 8,
        symbol: 'ALEX',
        tx_id: b.txs[0]!.txId,
      }),
    ]);
    expect(notices).toEqual([]);
  });

  it('never reads the decimals again: a cold start takes the version from the memo with the stored decimals', async () => {
    await lambda.coldStart();
    await handler({}, lambdaContext('run-cold'));
    expect(done('run-cold')).toMatchObject({ watchConfigVersion: s3.versions(BUCKET, KEY).at(-1)!.versionId });
    const next = push({ ...withAlex, contracts: [fakeContractId('dex')] });
    await handler({}, lambdaContext('run-next'));
    expect(done('run-next')).toMatchObject({ watchConfigVersion: next.versionId });
    expect(fake.count(ROUTES.tokenMetadata)).toBe(3);
  });

  it('refuses a version whose token the metadata API does not know, naming the token and the fix, once', async () => {
    const good = s3.versions(BUCKET, KEY).at(-1)!;
    const bad = push({ ...withAlex, balances: [...withAlex.balances, { name: 'mystery low', address: pool, asset: mystery, below: '5 MYST' }] });
    await handler({}, lambdaContext('run-unknown-1'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toContain(bad.versionId);
    expect(notices[0]!.Message).toContain(`${mystery}'s decimals are not in the token metadata API`);
    expect(notices[0]!.Message).toContain('give "decimals"');
    await handler({}, lambdaContext('run-unknown-2'));
    expect(notices).toHaveLength(1);
    expect(done('run-unknown-2')).toMatchObject({ watchConfigVersion: good.versionId, watchConfigRejected: { versionId: bad.versionId } });
    expect(Object.keys((await storedDecimals()) ?? {})).toEqual([alex]);
  });
});
