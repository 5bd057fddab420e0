// The stack's custom resource that puts watch.json in the config bucket: the first version at the first
// deploy, and never over a newer version pushed at runtime (a conditional PUT, If-None-Match: *) unless the
// deploy says `-c replaceWatchConfig=true`. Every deploy runs it and reports the version that is live.
import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export interface SeedProperties {
  Bucket: string;
  Key: string;
  /** The validated watch.json as a deploy asset. */
  SourceBucket: string;
  SourceKey: string;
  /** 'true': put watch.json as a new version even over a newer one. */
  Replace: string;
}

export interface SeedResult {
  VersionId: string;
  /** What this deploy did, in words, for the stack output. */
  Action: string;
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

export async function seedWatchConfig(s3: S3Client, props: SeedProperties): Promise<SeedResult> {
  const source = await s3.send(new GetObjectCommand({ Bucket: props.SourceBucket, Key: props.SourceKey }));
  const body = (await source.Body?.transformToString('utf-8')) ?? '';
  const put = (ifNoneMatch?: string) =>
    s3.send(
      new PutObjectCommand({
        Bucket: props.Bucket,
        Key: props.Key,
        Body: body,
        ContentType: 'application/json',
        ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}),
      }),
    );
  if (props.Replace === 'true') {
    const written = await put();
    return { VersionId: written.VersionId ?? 'null', Action: 'replaced the live watch config with watch.json (replaceWatchConfig=true)' };
  }
  try {
    const written = await put('*');
    return { VersionId: written.VersionId ?? 'null', Action: 'uploaded watch.json as the first version' };
  } catch (error) {
    if (statusOf(error) !== 412) throw error;
  }
  const live = await s3.send(new HeadObjectCommand({ Bucket: props.Bucket, Key: props.Key }));
  const same = live.ETag === `"${createHash('md5').update(body, 'utf8').digest('hex')}"`;
  return {
    VersionId: live.VersionId ?? 'null',
    Action: same
      ? 'kept the live version, the same as watch.json'
      : 'kept the live version, which differs from watch.json (npm run config -- diff); -c replaceWatchConfig=true replaces it',
  };
}

const s3 = new S3Client({});

/** A direct custom resource: CloudFormation waits for the answer PUT to the pre-signed ResponseURL. */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const props = event.ResourceProperties as unknown as SeedProperties;
  const physicalId = `s3://${props.Bucket}/${props.Key}`;
  let answer: Record<string, unknown>;
  try {
    const data = event.RequestType === 'Delete' ? undefined : await seedWatchConfig(s3, props);
    answer = { Status: 'SUCCESS', ...(data ? { Data: data, Reason: data.Action } : {}) };
  } catch (error) {
    console.error('seeding the watch config failed', error);
    answer = { Status: 'FAILED', Reason: `cannot put watch.json in ${physicalId}: ${(error as Error).name}: ${(error as Error).message}` };
  }
  const response = await fetch(event.ResponseURL, {
    method: 'PUT',
    headers: { 'content-type': '' },
    body: JSON.stringify({
      ...answer,
      PhysicalResourceId: physicalId,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    }),
  });
  if (!response.ok) throw new Error(`CloudFormation did not take the answer: HTTP ${response.status}`);
}
