// The Lambda handler reading its watch config from the versioned store between invocations: the handler on
// dynalite, the config on a local S3 stand-in (reached through AWS_ENDPOINT_URL_S3), SNS mocked at the client.
import { SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, transfer } from '../support/fake-hiro';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';
import { alertOf, lambdaOnDynalite, logLinesOf, recordOperatorNotices } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const BUCKET = 'stacks-watch-config';
const KEY = 'watch.json';
const alice = fakeAddress('alice');
const vault = fakeContractId('vault');

const sns = mockClient(SNSClient);
const base = { network: 'mainnet', addresses: [alice], startHeight: 2 };

describe('the handler reading a new watch config version between two invocations', () => {
  const fake = createFakeHiro();
  let s3: FakeS3;
  const notices: PublishCommandInput[] = [];
  // No WATCH_CONFIG: the handler reads its config from the store.
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-live-config',
    beforeColdStart: async () => {
      s3 = await startFakeS3();
      fake.chain.mine([]);
      fake.chain.mine([]);
    },
    extra: () => ({ OPS_TOPIC_ARN, WATCH_CONFIG_BUCKET: BUCKET, WATCH_CONFIG_KEY: KEY, AWS_ENDPOINT_URL_S3: s3.endpoint }),
  });
  const { handler } = lambda;
  const push = (config: unknown) => s3.put(BUCKET, KEY, typeof config === 'string' ? config : JSON.stringify(config));
  const alertKeys = () => lambda.published.map((e) => alertOf(e).key);
  const runLines = (runId: string) => logLinesOf(lambda.output).filter((l) => l.runId === runId);
  const s3Requests = () => s3.requests.filter((r) => r.method === 'GET');

  afterAll(async () => {
    await s3?.close();
  });
  beforeEach(() => {
    recordOperatorNotices(sns, notices);
  });

  it('runs on the first version, and a quiet run reads the store with one conditional request answered 304', async () => {
    const v1 = push(base);
    const b3 = fake.chain.mine([transfer({ to: alice, amount: 1_000 })]);
    await handler({}, lambdaContext('run-1'));
    expect(alertKeys()).toEqual([`token_transfer:${b3.txs[0]!.txId}`]);
    expect(runLines('run-1').find((l) => l.message === 'invocation done')).toMatchObject({ watchConfigVersion: v1.versionId });

    const before = s3Requests().length;
    await handler({}, lambdaContext('run-quiet'));
    expect(s3Requests().slice(before)).toEqual([expect.objectContaining({ status: 304 })]);
  });

  it('takes a rule added into use on the next run, from the cursor on', async () => {
    const b4 = fake.chain.mine([contractCall({ contractId: vault, logs: ['before the rule'] })]);
    await handler({}, lambdaContext('run-2'));
    const v2 = push({ ...base, contractLogs: [{ contractId: vault }] });
    const b5 = fake.chain.mine([contractCall({ contractId: vault, logs: ['after the rule'] })]);
    await handler({}, lambdaContext('run-3'));
    // No backfill: the print of block 4, scanned under the old version, is not alerted.
    expect(alertKeys()).toEqual([`contract_log:${b5.txs[0]!.txId}:0`]);
    expect(b4.height).toBe(b5.height - 1);
    expect(runLines('run-3').find((l) => l.message === 'invocation done')).toMatchObject({ watchConfigVersion: v2.versionId });
  });

  it('refuses a bad version, tells the ops topic once with every problem and its path, and keeps the last good one running', async () => {
    const good = s3.versions(BUCKET, KEY).at(-1)!;
    const bad = push({ ...base, contractLogs: [{ contractId: vault }], addresses: ['SP000'], transfers: [{ asset: 'STX' }] });
    const b6 = fake.chain.mine([contractCall({ contractId: vault, logs: ['still watched'] })]);
    await handler({}, lambdaContext('run-bad-1'));
    expect(alertKeys()).toEqual([`contract_log:${b6.txs[0]!.txId}:0`]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ TopicArn: OPS_TOPIC_ARN, Subject: expect.stringContaining(good.versionId) });
    expect(notices[0]!.Message).toContain(bad.versionId);
    expect(notices[0]!.Message).toMatch(/\$\.addresses\[0\]/);
    expect(notices[0]!.Message).toMatch(/\$\.transfers\[0\]\.asset/);

    await handler({}, lambdaContext('run-bad-2'));
    expect(notices).toHaveLength(1); // once per bad version
    const done = runLines('run-bad-2').find((l) => l.message === 'invocation done')!;
    expect(done).toMatchObject({ watchConfigVersion: good.versionId, watchConfigRejected: { versionId: bad.versionId } });
  });

  it('keeps the refusal across a cold start: no second notice, no download, the last good version from the memo', async () => {
    await lambda.coldStart();
    const before = s3Requests().length;
    const b7 = fake.chain.mine([contractCall({ contractId: vault, logs: ['after a cold start'] })]);
    await handler({}, lambdaContext('run-cold'));
    expect(notices).toEqual([]);
    expect(s3Requests().slice(before)).toEqual([expect.objectContaining({ status: 304 })]);
    expect(alertKeys()).toEqual([`contract_log:${b7.txs[0]!.txId}:0`]);
    expect(runLines('run-cold').find((l) => l.message === 'invocation done')).toMatchObject({ watchConfigRejected: { problems: expect.any(Array) } });
  });

  it('refuses a changed network or startHeight with a clear message, and takes the next good version', async () => {
    push({ ...base, contractLogs: [{ contractId: vault }], startHeight: 1 });
    await handler({}, lambdaContext('run-start-height'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toMatch(/\$\.startHeight: startHeight was 2: .*--replay/);

    const fixed = push({ ...base, contractLogs: [{ contractId: vault }], contracts: [vault] });
    await handler({}, lambdaContext('run-fixed'));
    const done = runLines('run-fixed').find((l) => l.message === 'invocation done')!;
    expect(done.watchConfigVersion).toBe(fixed.versionId);
    expect(done.watchConfigRejected).toBeUndefined();
    // A contract added to `contracts` gets its first-observation alert.
    expect(alertKeys()).toContain(`contract_status:${vault}:1`);
  });

  it('refuses a version that changes the network alone, naming it, and keeps watching with the version in use', async () => {
    const refused = push({ ...base, network: 'testnet', addresses: [fakeAddress('alice', 'testnet')] });
    await handler({}, lambdaContext('run-network'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toMatch(/\$\.network: the watcher runs on mainnet/);
    expect(notices[0]!.Message).not.toMatch(/\$\.startHeight/);
    const done = runLines('run-network').find((l) => l.message === 'invocation done')!;
    expect(done.watchConfigVersion).toEqual(expect.any(String));
    expect(done.watchConfigVersion).not.toBe(refused.versionId);
    expect(done.watchConfigRejected).toMatchObject({ problems: expect.any(Array) });
  });

  it('lets WATCH_CONFIG override the store (tests, emergencies): the store is not read', async () => {
    process.env.WATCH_CONFIG = JSON.stringify({ ...base, contracts: [vault] });
    try {
      await lambda.coldStart();
      const before = s3.requests.length;
      await handler({}, lambdaContext('run-override'));
      expect(s3.requests.length).toBe(before);
      expect(runLines('run-override').find((l) => l.message === 'invocation done')).toMatchObject({ watchConfigVersion: 'WATCH_CONFIG' });
    } finally {
      delete process.env.WATCH_CONFIG;
    }
  });
});
