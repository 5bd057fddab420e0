// The seed custom resource's work against a local S3: the first deploy puts watch.json, a later one keeps a
// newer version pushed at runtime, and replaceWatchConfig=true puts watch.json over it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedWatchConfig } from '../../lambda/seed/seed-watch-config';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';

describe('seeding the watch config at deploy', () => {
  let s3: FakeS3;
  let client: S3Client;
  const props = { Bucket: 'config', Key: 'watch.json', SourceBucket: 'assets', SourceKey: 'abc.json', Replace: 'false' };
  beforeAll(async () => {
    s3 = await startFakeS3();
    client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
    s3.put('assets', 'abc.json', '{"network":"mainnet","addresses":["SP1"]}');
  });
  afterAll(async () => {
    client.destroy();
    await s3.close();
  });

  it('puts watch.json as the first version, and later keeps the live one, saying whether it is the same', async () => {
    const first = await seedWatchConfig(client, props);
    expect(first).toEqual({ VersionId: s3.versions('config', 'watch.json')[0]!.versionId, Action: 'uploaded watch.json as the first version' });
    expect((await seedWatchConfig(client, props)).Action).toBe('kept the live version, the same as watch.json');

    const pushed = s3.put('config', 'watch.json', '{"network":"mainnet","addresses":["SP1","SP2"]}');
    const later = await seedWatchConfig(client, props);
    expect(later).toEqual({
      VersionId: pushed.versionId,
      Action: expect.stringMatching(/^kept the live version, which differs from watch.json .*replaceWatchConfig=true/),
    });
    expect(s3.versions('config', 'watch.json')).toHaveLength(2);
  });

  it('puts watch.json over a newer version when told to, as a new version (the newer one stays in the history)', async () => {
    const replaced = await seedWatchConfig(client, { ...props, Replace: 'true' });
    const versions = s3.versions('config', 'watch.json');
    expect(replaced.VersionId).toBe(versions.at(-1)!.versionId);
    expect(versions.at(-1)!.body.toString()).toBe('{"network":"mainnet","addresses":["SP1"]}');
    expect(versions).toHaveLength(3);
  });
});

describe('the seed custom resource answering CloudFormation', () => {
  it('PUTs SUCCESS with the live version to the response URL, and FAILED with the reason when S3 refuses', async () => {
    const s3 = await startFakeS3();
    s3.put('assets', 'abc.json', '{"network":"mainnet","addresses":["SP1"]}');
    const answers: Record<string, unknown>[] = [];
    const cloudFormation = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        answers.push({ method: req.method, ...(JSON.parse(body) as Record<string, unknown>) });
        res.end();
      });
    });
    await new Promise<void>((resolve) => cloudFormation.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, { AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
    try {
      vi.resetModules();
      const { handler } = await import('../../lambda/seed/seed-watch-config');
      const event = {
        RequestType: 'Create',
        ResponseURL: `http://127.0.0.1:${(cloudFormation.address() as AddressInfo).port}/answer`,
        StackId: 'stack',
        RequestId: 'request',
        LogicalResourceId: 'WatchConfigSeed',
        ResourceType: 'Custom::WatchConfigSeed',
        ServiceToken: 'arn',
        ResourceProperties: { ServiceToken: 'arn', Bucket: 'config', Key: 'watch.json', SourceBucket: 'assets', SourceKey: 'abc.json', Replace: 'false' },
      } as CloudFormationCustomResourceEvent;
      await handler(event);
      s3.failWith(403, 'AccessDenied');
      vi.spyOn(console, 'error').mockImplementation(() => {});
      await handler(event);
      expect(answers).toEqual([
        expect.objectContaining({
          method: 'PUT',
          Status: 'SUCCESS',
          PhysicalResourceId: 's3://config/watch.json',
          RequestId: 'request',
          Data: { VersionId: s3.versions('config', 'watch.json')[0]!.versionId, Action: 'uploaded watch.json as the first version' },
        }),
        expect.objectContaining({ Status: 'FAILED', Reason: expect.stringMatching(/^cannot put watch.json in s3:\/\/config\/watch.json: AccessDenied/) }),
      ]);
    } finally {
      vi.restoreAllMocks();
      delete process.env.AWS_ENDPOINT_URL_S3;
      cloudFormation.closeAllConnections();
      await new Promise((resolve) => cloudFormation.close(resolve));
      await s3.close();
    }
  });
});
