// The S3 adapter of the live watch config against the local S3 stand-in: a version longer than the reader
// takes is judged by its size, before its body is read.
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3WatchConfigSource } from '../../../lambda/adapters/aws/s3-watch-config';
import { startFakeS3, type FakeS3 } from '../../support/fake-s3';

describe('the S3 watch config source', () => {
  let s3: FakeS3;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startFakeS3();
    client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  });
  afterAll(async () => {
    client.destroy();
    await s3.close();
  });

  it('does not download a version longer than maxBytes: it comes back empty, with its size', async () => {
    const source = createS3WatchConfigSource({ client, bucket: 'config', key: 'watch.json', maxBytes: 1_000 });
    const long = s3.put('config', 'watch.json', JSON.stringify({ network: 'mainnet', $comment: 'x'.repeat(5_000) }));
    const fetched = await source.fetchCurrent();
    expect(fetched).toEqual({ changed: true, version: { versionId: long.versionId, etag: long.etag, text: '', tooLongBytes: long.body.length } });
    expect(await source.fetchVersion(long.versionId)).toMatchObject({ text: '', tooLongBytes: long.body.length });

    const short = s3.put('config', 'watch.json', '{"network":"mainnet"}');
    expect(await source.fetchCurrent(long.etag)).toEqual({
      changed: true,
      version: { versionId: short.versionId, etag: short.etag, text: '{"network":"mainnet"}' },
    });
  });
});
