// The doorbell (docs/doorbell.md): a function URL a push source rings to have the watcher look now. Its
// function runs lambda/doorbell.ts from the watcher's bundle, role, log group and environment, so a ring runs
// the very same cycle under the same run lease. The URL's auth type is NONE because a Chainhook, a cron or
// curl cannot sign requests with AWS SigV4; the function checks an HMAC under a shared secret instead, before
// it does anything else. One concurrent ring at most: Lambda answers the rest with 429 at no charge, so a
// flood costs at most one function busy all the time, never a second cycle.
import { join } from 'node:path';
import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, FunctionUrlAuthType, type FunctionUrl, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { DoorbellSettings } from '../settings/doorbell-settings';
import { ESM_BUNDLING } from './bundling';
import type { LogLevel } from '../settings/deploy-settings';
import { watcherLogging } from './watcher-function';

export const DOORBELL_ENTRY = 'lambda/doorbell.ts';

export interface DoorbellProps {
  projectRoot: string;
  settings: DoorbellSettings;
  /** The watcher's role, log group and environment: the doorbell runs the watcher's cycle. */
  role: IRole;
  logGroup: ILogGroup;
  logLevel: LogLevel;
  environment: Record<string, string>;
  memorySize: number;
  timeout: Duration;
}

export class Doorbell extends Construct {
  readonly function: NodejsFunction;
  readonly url: FunctionUrl;
  readonly secret: ISecret;

  constructor(scope: Construct, id: string, props: DoorbellProps) {
    super(scope, id);
    this.secret = doorbellSecret(this, props.settings);
    this.secret.grantRead(props.role);
    this.function = new NodejsFunction(this, 'Function', {
      description: 'stacks-watch doorbell: a signed ring starts a watch cycle now',
      entry: join(props.projectRoot, DOORBELL_ENTRY),
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: props.role,
      logGroup: props.logGroup,
      ...watcherLogging(props.logLevel),
      // A ring is one cycle, never a polling run.
      environment: { ...props.environment, DOORBELL_SECRET_ARN: this.secret.secretArn },
      reservedConcurrentExecutions: 1,
      retryAttempts: 0,
      bundling: ESM_BUNDLING,
    });
    this.url = this.function.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    new CfnOutput(this, 'Url', { value: this.url.url, description: 'POST here with x-doorbell-timestamp and x-doorbell-signature (docs/doorbell.md)' });
    new CfnOutput(this, 'SecretArn', { value: this.secret.secretArn, description: 'the doorbell shared secret' });
  }
}

function doorbellSecret(scope: Construct, settings: DoorbellSettings): ISecret {
  if (settings.secret.kind === 'existing') return Secret.fromSecretCompleteArn(scope, 'Secret', settings.secret.secretArn);
  const secret = new Secret(scope, 'Secret', {
    description: 'stacks-watch doorbell shared secret: ringers sign their timestamp with it (HMAC-SHA256)',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason: 'Every ringer holds a copy of the doorbell secret; rotating it means updating them, which the operator does by hand.',
  });
  return secret;
}
