// The live watch config's bucket and the custom resource that seeds it, as synthesized.
import { describe, expect, it } from 'vitest';
import { NONCURRENT_DAYS, NONCURRENT_KEPT } from '../../infra/constructs/watch-config-store';
import { freshSynth, synthStack } from './support/synth';

const bucketOf = (s: ReturnType<typeof synthStack>) => {
  return Object.values(s.template.findResources('AWS::S3::Bucket'))[0] as { Properties: Record<string, any>; DeletionPolicy?: string };
};
const seedOf = (s: ReturnType<typeof synthStack>) =>
  Object.values(s.template.findResources('Custom::WatchConfigSeed'))[0]!.Properties as Record<string, unknown>;

describe('the watch config bucket', () => {
  const s = synthStack();

  it('keeps every version, for at least a year and always the newest 100, private, S3-encrypted and outliving the stack', () => {
    const bucket = bucketOf(s);
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_DAYS, NewerNoncurrentVersions: NONCURRENT_KEPT },
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
      }),
    ]);
    expect(NONCURRENT_DAYS).toBeGreaterThanOrEqual(365);
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  it('refuses any request that is not over TLS', () => {
    const policy = Object.values(s.template.findResources('AWS::S3::BucketPolicy'))[0]!.Properties.PolicyDocument.Statement;
    expect(policy).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  it('names the bucket, the key and the version live after the deploy in the stack outputs', () => {
    const outputs = s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['WatchConfigBucketName', 'WatchConfigKey', 'WatchConfigLiveVersion', 'WatchConfigDeploy']));
    expect(outputs.WatchConfigKey!.Value).toBe('watch.json');
    expect(JSON.stringify(outputs.WatchConfigLiveVersion!.Value)).toContain('VersionId');
  });
});

describe('the seed custom resource', () => {
  it('never replaces a newer version unless the deploy says replaceWatchConfig=true', () => {
    expect(seedOf(synthStack())).toMatchObject({ Key: 'watch.json', Replace: 'false' });
    expect(seedOf(synthStack({ replaceWatchConfig: 'true' }))).toMatchObject({ Replace: 'true' });
  });

  it('runs at every deploy, so that each one reports the live version', () => {
    const first = seedOf(freshSynth()).DeployId;
    const later = new Promise((resolve) => setTimeout(resolve, 5)).then(() => seedOf(freshSynth()).DeployId);
    return expect(later).resolves.not.toBe(first);
  });
});
