// The live watch config: a versioned S3 object the watcher reads each run with a conditional GET, and the
// custom resource that seeds it with watch.json. Every version is kept at least a year (and the newest 100
// noncurrent ones whatever their age), so any earlier one can be restored (`npm run config -- rollback`).
// docs/watch-config-store.md says why S3 rather than AppConfig.
import { join } from 'node:path';
import { CustomResource, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { ESM_BUNDLING } from './bundling';

export const SEED_ENTRY = 'lambda/seed/seed-watch-config.ts';
export const WATCH_CONFIG_KEY = 'watch.json';
/** Noncurrent versions are kept this long at least, and the newest NONCURRENT_KEPT of them always. */
export const NONCURRENT_DAYS = 365;
export const NONCURRENT_KEPT = 100;

export interface WatchConfigStoreProps {
  projectRoot: string;
  /** The validated watch.json: the first version. */
  watchConfigPath: string;
  /** Put watch.json as a new version even over a newer one pushed at runtime. */
  replace: boolean;
  /** Changes every synth, so that every deploy runs the seed and reports the live version. */
  deployId: string;
  logRetention: RetentionDays;
}

export class WatchConfigStore extends Construct {
  readonly bucket: Bucket;
  readonly key = WATCH_CONFIG_KEY;
  readonly seed: CustomResource;

  constructor(scope: Construct, id: string, props: WatchConfigStoreProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        {
          id: 'keep-history',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_DAYS),
          noncurrentVersionsToRetain: NONCURRENT_KEPT,
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      // The history of what was watched outlives the stack, like the alert records it explains.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'One small object written by the config command and read by the watcher; the bucket keeps its versions (what was ' +
        'watched when). Who wrote one is in CloudTrail only where a trail logs S3 data events, which is not by default; ' +
        'access logs would need a second bucket.',
    });
    this.seed = this.seedResource(props);
  }

  private seedResource(props: WatchConfigStoreProps): CustomResource {
    const asset = new Asset(this, 'FirstVersion', { path: props.watchConfigPath });
    const logGroup = new LogGroup(this, 'SeedLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(this, 'SeedRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'stacks-watch config seed: reads the deploy asset of watch.json, puts it in the config bucket once, its logs',
    });
    const allow = (actions: string[], resource: string) => role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [resource] }));
    allow(['s3:GetObject'], asset.bucket.arnForObjects(asset.s3ObjectKey));
    // HeadObject is allowed by s3:GetObject.
    allow(['s3:PutObject', 's3:GetObject'], this.bucket.arnForObjects(this.key));
    allow(['logs:CreateLogStream', 'logs:PutLogEvents'], logGroup.logGroupArn);
    const fn = new NodejsFunction(this, 'SeedFunction', {
      description: 'stacks-watch: puts watch.json in the config bucket at the first deploy, reports the live version',
      entry: join(props.projectRoot, SEED_ENTRY),
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(60),
      role,
      logGroup,
      bundling: ESM_BUNDLING,
    });
    return new CustomResource(this, 'Seed', {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::WatchConfigSeed',
      properties: {
        Bucket: this.bucket.bucketName,
        Key: this.key,
        SourceBucket: asset.s3BucketName,
        SourceKey: asset.s3ObjectKey,
        Replace: String(props.replace),
        DeployId: props.deployId,
      },
    });
  }

  /** The location for messages and outputs. */
  get location(): string {
    return `s3://${this.bucket.bucketName}/${this.key}`;
  }
}

/** Read access of the watcher: the current object and any version of it. */
export function watchConfigReadStatement(store: WatchConfigStore): PolicyStatement {
  return new PolicyStatement({ actions: ['s3:GetObject', 's3:GetObjectVersion'], resources: [store.bucket.arnForObjects(store.key)] });
}
