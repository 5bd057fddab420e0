// In the loop mode a warm container's turns do not ask the live watch config store (a turn every few seconds
// would otherwise pay a GET each): the schedule's ticks ask, and flag the version they find for the turns; a
// turn asks only when the flag names a version its container has not read. On the schedule, every run asks.
// Against a local S3 stand-in and the memo on dynalite.
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorChannelOverLog } from '../../lambda/core/deliver/operator-log';
import { silentTelemetry } from '../../lambda/core/ports';
import type { LambdaSettings } from '../../lambda/runtime/lambda-env';
import { FLAGGED_RETRY_MS, LambdaWatchConfig } from '../../lambda/runtime/lambda-watch-config';
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
  const read = (askStore?: boolean) => configs.current(settings, operatorChannelOverLog(silentTelemetry), () => {}, undefined, { askStore });
  return {
    read: () => read(true), // as the handler reads on the schedule, and a tick
    /** A queued loop turn: the config the container holds. */
    turn: () => read(false),
    configs,
    advance: (ms: number) => void (nowMs += ms),
    gets,
  };
}

describe('how often a container asks the watch config store', () => {
  it("in the loop mode a warm container's turns ask nothing; a cold one asks once", async () => {
    const c = container(true);
    const before = c.gets();
    await c.turn();
    for (let turn = 0; turn < 20; turn++) {
      c.advance(8_000);
      await c.turn();
    }
    expect(c.gets() - before).toBe(1);
    expect(c.configs.storeVersion).toBe(s3.versions(BUCKET, KEY).at(-1)!.versionId);
  });

  it('follows a flag naming another version than the one it read, once a minute at most for the same flag, never its own', async () => {
    const c = container(true);
    await c.turn();
    const read = c.configs.storeVersion!;
    expect(c.configs.followsFlag(null)).toBe(false);
    expect(c.configs.followsFlag(read)).toBe(false);
    expect(c.configs.followsFlag('v-newer')).toBe(true);
    c.advance(8_000);
    expect(c.configs.followsFlag('v-newer')).toBe(false);
    c.advance(FLAGGED_RETRY_MS);
    expect(c.configs.followsFlag('v-newer')).toBe(true);
    expect(c.configs.followsFlag('v-newest')).toBe(true);
  });

  it('on the schedule, every run asks (a conditional GET each), and the memo is read by the cold start alone', async () => {
    const c = container(false);
    const before = c.gets();
    const memoReads = () => dynamo.requests.filter((r) => r.operation === 'GetItem').length;
    const readsBefore = memoReads();
    await c.read();
    c.advance(8_000);
    await c.read();
    c.advance(8_000);
    await c.read();
    expect(c.gets() - before).toBe(3);
    expect(memoReads() - readsBefore).toBe(1);
  });
});
