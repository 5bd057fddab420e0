// The function meeting a watch config version past its ceilings (a 128 MB function here: 8 MiB of text):
// the handler on dynalite, the config on the local S3 stand-in. Such a version is refused like any bad one:
// the last good version keeps running, the ops topic is told once, and a cold start does not tell again.
import { SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { configCeilings } from '../../lambda/core/watch-config/config-ceilings';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId } from '../support/fake-hiro';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';
import { alertOf, lambdaOnDynalite, logLinesOf, recordOperatorNotices } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const BUCKET = 'stacks-watch-config';
const KEY = 'watch.json';
const MEMORY_MB = 128;
const vault = fakeContractId('vault');
const sns = mockClient(SNSClient);
const base = { network: 'mainnet', addresses: [fakeAddress('alice')], contractLogs: [{ contractId: vault }], startHeight: 2 };

describe('the function meeting a watch config version past its ceilings', () => {
  const fake = createFakeHiro();
  let s3: FakeS3;
  const notices: PublishCommandInput[] = [];
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-config-ceilings',
    beforeColdStart: async () => {
      s3 = await startFakeS3();
      fake.chain.mine([]);
      fake.chain.mine([]);
    },
    // Lambda tells the function its memory in AWS_LAMBDA_FUNCTION_MEMORY_SIZE.
    extra: () => ({
      OPS_TOPIC_ARN,
      WATCH_CONFIG_BUCKET: BUCKET,
      WATCH_CONFIG_KEY: KEY,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(MEMORY_MB),
    }),
  });
  const { handler } = lambda;
  const push = (text: string) => s3.put(BUCKET, KEY, text);
  const doneLine = (runId: string) => logLinesOf(lambda.output).find((l) => l.runId === runId && l.message === 'invocation done');
  /** A print in a new block, alerted only while the good version (watching the vault) runs. */
  const stillWatched = async (runId: string) => {
    const before = lambda.published.length;
    const block = fake.chain.mine([contractCall({ contractId: vault, logs: [runId] })]);
    await handler({}, lambdaContext(runId));
    expect(lambda.published.slice(before).map((e) => alertOf(e).key)).toEqual([`contract_log:${block.txs[0]!.txId}:0`]);
  };

  afterAll(async () => {
    await s3?.close();
  });
  beforeEach(() => {
    // Only the config's notices: a warm container also tells of the API's deprecated routes.
    recordOperatorNotices(sns, notices, (input) => /watch config/.test(input.Subject ?? ''));
  });

  it('refuses a version longer than its memory reads, keeps the last good one and tells the ops topic once', async () => {
    const good = push(JSON.stringify(base));
    await stillWatched('run-good');
    // Valid JSON, valid config, only too long: a comment of 9 MiB.
    const long = push(JSON.stringify({ ...base, $comment: 'x'.repeat(configCeilings(MEMORY_MB).bytes + 2 ** 20) }));
    await stillWatched('run-long-1');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toContain(long.versionId);
    expect(notices[0]!.Message).toMatch(/is 9,437,\d{3} bytes; a function of 128 MB reads at most 8,388,608: deploy with memorySize 256/);
    await stillWatched('run-long-2');
    expect(notices).toHaveLength(1);
    expect(doneLine('run-long-2')).toMatchObject({ watchConfigVersion: good.versionId, watchConfigRejected: { versionId: long.versionId } });
  });

  it('keeps that refusal across a cold start: no second notice, the good version from the memo', async () => {
    await lambda.coldStart();
    await stillWatched('run-long-cold');
    expect(notices).toEqual([]);
  });

  it('refuses a 20 KB version nested thousands deep instead of failing every invocation, and tells once', async () => {
    const where = `${'{"not":'.repeat(2_500)}{"a":1}${'}'.repeat(2_500)}`;
    const deep = push(JSON.stringify({ ...base, contractLogs: [{ contractId: vault }, { contractId: vault, where: '@' }] }).replace('"@"', where));
    await stillWatched('run-deep-1');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toContain(deep.versionId);
    expect(notices[0]!.Message).toMatch(/\$\.contractLogs\[1\]\.where: nests arrays and objects more than 64 deep/);
    await stillWatched('run-deep-2');
    await lambda.coldStart();
    await stillWatched('run-deep-cold');
    expect(notices).toHaveLength(1);
  });
});
