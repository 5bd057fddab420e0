// A warm container in the loop mode asks the live watch config store at most once a minute (a turn every few
// seconds would otherwise pay a GET each); on the schedule, every run asks. Against a local S3 stand-in and
// the memo on dynalite.
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorChannelOverLog } from '../../lambda/core/deliver/operator-log';
import { silentTelemetry } from '../../lambda/core/ports';
import type { LambdaSettings } from '../../lambda/runtime/lambda-env';
import { LambdaWatchConfig, LOOP_CONFIG_CHECK_MS } from '../../lambda/runtime/lambda-watch-config';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';

const BUCKET = 'stacks-watch-config';
const KEY = 'watch.json';
const config = (startHeight: number) => JSON.stringify({ network: 'mainnet', addresses: ['SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR'], startHeight });

let s3: FakeS3;
let dynamo: LocalDynamo;
beforeAll(async () => {
  [s3, dynamo] = await Promise.all([startFakeS3(), startDynalite({ tableName: 'stacks-watch-config-checks' })]);
  s3.put(BUCKET, KEY, config(1));
});
afterAll(async () => {
  await Promise.all([s3?.close(), dynamo?.close()]);
});

function container(loop: boolean) {
  let nowMs = 1_800_000_000_000;
  const configs = new LambdaWatchConfig(
    {
      s3: () =>
        new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      doc: DynamoDBDocumentClient.from(dynamo.client),
    },
    () => nowMs,
  );
  const settings = {
    tableName: dynamo.tableName,
    watchConfigStore: { bucket: BUCKET, key: KEY },
    watchConfigPath: 'watch.json',
    ...(loop ? { loop: { queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/turns', delaySeconds: 8, turnSeconds: 30 } } : {}),
  } as LambdaSettings;
  const gets = () => s3.requests.filter((r) => r.method === 'GET').length;
  return {
    read: () => configs.current(settings, operatorChannelOverLog(silentTelemetry), () => {}),
    advance: (ms: number) => void (nowMs += ms),
    gets,
  };
}

describe('how often a container asks the watch config store', () => {
  it('in the loop mode, once a minute: turns 8 s apart reuse the version read, the first turn past the minute asks again', async () => {
    const c = container(true);
    const before = c.gets();
    await c.read();
    for (let turn = 0; turn < 6; turn++) {
      c.advance(8_000);
      await c.read();
    }
    expect(c.gets() - before).toBe(1);
    c.advance(LOOP_CONFIG_CHECK_MS);
    await c.read();
    expect(c.gets() - before).toBe(2);
  });

  it('on the schedule, every run asks (a conditional GET each)', async () => {
    const c = container(false);
    const before = c.gets();
    await c.read();
    c.advance(8_000);
    await c.read();
    expect(c.gets() - before).toBe(2);
  });
});
