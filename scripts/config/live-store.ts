// Where the config command finds the live watch config: the stack's outputs (CloudFormation DescribeStacks),
// then the versioned object in S3. Standard AWS credential chain and region; every failure says what is missing.
import { readFileSync } from 'node:fs';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CopyObjectCommand, GetObjectCommand, ListObjectVersionsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export class ConfigCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigCommandError';
  }
}

export interface LiveLocation {
  stackName: string;
  bucket: string;
  key: string;
}

export interface StoredVersion {
  versionId: string;
  etag: string;
  lastModified?: Date;
  size?: number;
  isLatest: boolean;
}

const nameOf = (error: unknown) => (error as { name?: string }).name ?? '';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The same stack name the CDK app uses: `-c stackName=…`, else STACK_NAME, else cdk.json's context, else StacksWatch. */
export function stackNameFrom(context: Record<string, string>, env: NodeJS.ProcessEnv, cdkJsonPath = 'cdk.json'): string {
  if (context.stackName) return context.stackName;
  if (env.STACK_NAME?.trim()) return env.STACK_NAME.trim();
  try {
    const cdkJson = JSON.parse(readFileSync(cdkJsonPath, 'utf8')) as { context?: { stackName?: unknown } };
    if (typeof cdkJson.context?.stackName === 'string') return cdkJson.context.stackName;
  } catch {
    // no cdk.json here: the default name
  }
  return 'StacksWatch';
}

/** What is missing, in words, for an AWS error of the config command. */
export function awsProblem(error: unknown, doing: string): ConfigCommandError {
  const name = nameOf(error);
  const message = messageOf(error);
  if (name === 'CredentialsProviderError' || /Could not load credentials/i.test(message)) {
    return new ConfigCommandError(
      `no AWS credentials found while trying to ${doing}: set AWS_PROFILE (aws sso login / aws configure) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
  if (/Region is missing/i.test(message))
    return new ConfigCommandError(`no AWS region while trying to ${doing}: set AWS_REGION (the stack's region) or a region in your AWS profile`);
  if (name === 'AccessDenied' || name === 'AccessDeniedException' || /not authorized/i.test(message)) {
    return new ConfigCommandError(`no permission to ${doing}: ${message}`);
  }
  if (name === 'ExpiredToken' || name === 'ExpiredTokenException') return new ConfigCommandError(`the AWS credentials have expired (${doing}): sign in again`);
  return new ConfigCommandError(`cannot ${doing}: ${name ? `${name}: ` : ''}${message}`);
}

export async function findLiveLocation(cloudFormation: CloudFormationClient, stackName: string): Promise<LiveLocation> {
  let outputs;
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = Stacks?.[0]?.Outputs ?? [];
  } catch (error) {
    if (/does not exist/.test(messageOf(error))) {
      const region = await cloudFormation.config.region().catch(() => 'this region');
      throw new ConfigCommandError(
        `no stack named ${stackName} in ${region}: deploy it first (npx cdk deploy), or name it with -c stackName=NAME (or STACK_NAME), or set AWS_REGION to its region`,
      );
    }
    throw awsProblem(error, `read the outputs of the stack ${stackName} (cloudformation:DescribeStacks)`);
  }
  const output = (key: string) => outputs.find((o) => o.OutputKey === key)?.OutputValue;
  const bucket = output('WatchConfigBucketName');
  if (!bucket)
    throw new ConfigCommandError(
      `the stack ${stackName} has no WatchConfigBucketName output: it was deployed before the live watch config; deploy this version once (npx cdk deploy)`,
    );
  return { stackName, bucket, key: output('WatchConfigKey') ?? 'watch.json' };
}

export class LiveStore {
  constructor(
    private readonly s3: S3Client,
    readonly location: LiveLocation,
  ) {}

  get where(): string {
    return `s3://${this.location.bucket}/${this.location.key}`;
  }

  async read(versionId?: string): Promise<{ text: string; versionId: string; etag: string }> {
    try {
      const got = await this.s3.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.location.key, ...(versionId ? { VersionId: versionId } : {}) }),
      );
      return { text: (await got.Body?.transformToString('utf-8')) ?? '', versionId: got.VersionId ?? 'null', etag: got.ETag ?? '' };
    } catch (error) {
      if (nameOf(error) === 'NoSuchKey') throw new ConfigCommandError(`${this.where} holds no version yet: push one (npm run config -- push)`);
      if (nameOf(error) === 'NoSuchVersion' || nameOf(error) === 'InvalidArgument')
        throw new ConfigCommandError(`${this.where} has no version ${versionId}: see npm run config -- history`);
      throw awsProblem(error, `read ${this.where}${versionId ? ` version ${versionId}` : ''} (s3:GetObject${versionId ? ', s3:GetObjectVersion' : ''})`);
    }
  }

  async put(text: string): Promise<string> {
    try {
      const put = await this.s3.send(
        new PutObjectCommand({ Bucket: this.location.bucket, Key: this.location.key, Body: text, ContentType: 'application/json' }),
      );
      return put.VersionId ?? 'null';
    } catch (error) {
      throw awsProblem(error, `write ${this.where} (s3:PutObject)`);
    }
  }

  /** The earlier version copied as the new current one: the history stays linear. */
  async copyAsCurrent(versionId: string): Promise<string> {
    const source = `${this.location.bucket}/${encodeURIComponent(this.location.key)}?versionId=${encodeURIComponent(versionId)}`;
    try {
      const copied = await this.s3.send(new CopyObjectCommand({ Bucket: this.location.bucket, Key: this.location.key, CopySource: source }));
      return copied.VersionId ?? 'null';
    } catch (error) {
      if (nameOf(error) === 'NoSuchVersion') throw new ConfigCommandError(`${this.where} has no version ${versionId}: see npm run config -- history`);
      throw awsProblem(error, `copy version ${versionId} of ${this.where} (s3:GetObjectVersion, s3:PutObject)`);
    }
  }

  /** Every version, newest first. */
  async history(): Promise<StoredVersion[]> {
    const versions: StoredVersion[] = [];
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    try {
      for (;;) {
        const page = await this.s3.send(
          new ListObjectVersionsCommand({ Bucket: this.location.bucket, Prefix: this.location.key, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker }),
        );
        for (const v of page.Versions ?? []) {
          if (v.Key !== this.location.key) continue;
          versions.push({
            versionId: v.VersionId ?? 'null',
            etag: v.ETag ?? '',
            isLatest: v.IsLatest ?? false,
            ...(v.LastModified ? { lastModified: v.LastModified } : {}),
            ...(v.Size !== undefined ? { size: v.Size } : {}),
          });
        }
        if (!page.IsTruncated) break;
        keyMarker = page.NextKeyMarker;
        versionIdMarker = page.NextVersionIdMarker;
      }
    } catch (error) {
      throw awsProblem(error, `list the versions of ${this.where} (s3:ListBucketVersions)`);
    }
    return versions.sort((a, b) => (b.lastModified?.getTime() ?? 0) - (a.lastModified?.getTime() ?? 0));
  }
}
