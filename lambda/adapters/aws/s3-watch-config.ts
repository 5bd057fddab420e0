// The watch config as a versioned S3 object, read with a conditional GET: while the object's ETag is the one
// last seen, S3 answers 304 with no body, so a quiet run costs one GET request and no transfer.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { WatchConfigFetch, WatchConfigSource, WatchConfigVersion } from '../../core/watch-config/watch-config-source';
import { errorName } from './retry';

export interface S3WatchConfigOptions {
  client: S3Client;
  bucket: string;
  key: string;
  /** The longest object read (the function's bytes ceiling): a longer one is refused by its size, unread. */
  maxBytes?: number;
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

function advice(error: unknown, location: string): Error {
  const name = errorName(error);
  const what =
    name === 'NoSuchKey' || name === 'NoSuchVersion'
      ? 'no such object or version: push one with `npm run config -- push`'
      : name === 'AccessDenied'
        ? "the function's role may not read it (s3:GetObject, s3:GetObjectVersion)"
        : name === 'NoSuchBucket'
          ? 'the bucket does not exist'
          : `${name}`;
  return new Error(`cannot read the watch config ${location}: ${what}`, { cause: error });
}

export function createS3WatchConfigSource(options: S3WatchConfigOptions): WatchConfigSource {
  const { client, bucket, key, maxBytes = Infinity } = options;
  const location = `s3://${bucket}/${key}`;
  async function get(input: { IfNoneMatch?: string; VersionId?: string }): Promise<WatchConfigFetch> {
    try {
      const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...input }));
      const head = { versionId: response.VersionId ?? 'null', etag: response.ETag ?? '' };
      const size = response.ContentLength ?? 0;
      if (size > maxBytes) {
        // The size is known before the body is read: a version the function could not hold is never downloaded.
        (response.Body as { destroy?: () => void } | undefined)?.destroy?.();
        return { changed: true, version: { ...head, text: '', tooLongBytes: size } };
      }
      const text = (await response.Body?.transformToString('utf-8')) ?? '';
      const version: WatchConfigVersion = { ...head, text };
      return { changed: true, version };
    } catch (error) {
      if (statusOf(error) === 304) return { changed: false };
      throw advice(error, location);
    }
  }
  return {
    location,
    fetchCurrent: (ifNoneMatch) => get(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}),
    async fetchVersion(versionId) {
      const result = await get({ VersionId: versionId });
      if (!result.changed) throw new Error(`cannot read the watch config ${location}: version ${versionId} came back empty`);
      return result.version;
    },
  };
}
