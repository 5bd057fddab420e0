// The Lambda handler with a broken deployment: a missing or malformed environment variable, a secret it
// cannot read or cannot use, a missing bundled config. Each invocation fails (throws, which the Errors
// alarm counts) with an error naming what to fix, logs it, and changes nothing: no item in the table, no
// request to the API, no message to SNS.
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeHiro, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { importHandler } from '../support/handler-environment';
import { captureOutput, lambdaContext } from '../support/lambda-invocation';
import { alice } from './watched-chain';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stacks-watch/api-key-AbCdEf';
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const SECRET_TEXT = '{"key":"hiro-9f8e7d6c"}';

const context = lambdaContext('bad-setup');

interface BadSetup {
  name: string;
  /** Variables to set; undefined removes one. */
  env: Record<string, string | undefined>;
  secret?: { rejects: string } | { holds: string };
  error: RegExp;
}

const SETUPS: BadSetup[] = [
  { name: 'TABLE_NAME missing', env: { TABLE_NAME: undefined }, error: /TABLE_NAME is not set/ },
  { name: 'TOPIC_ARN not an ARN', env: { TOPIC_ARN: 'alerts' }, error: /TOPIC_ARN is not an SNS topic ARN: "alerts"/ },
  { name: 'both missing, named together', env: { TABLE_NAME: undefined, TOPIC_ARN: undefined }, error: /TABLE_NAME is not set[^]*TOPIC_ARN is not set/ },
  { name: 'RUN_SECONDS not a number', env: { RUN_SECONDS: 'often' }, error: /RUN_SECONDS must be a whole number/ },
  {
    name: 'the secret ARN malformed',
    env: { STACKS_API_KEY_SECRET_ARN: 'stacks-watch/api-key' },
    error: /STACKS_API_KEY_SECRET_ARN is not a Secrets Manager secret ARN/,
  },
  { name: 'STACKS_API_RPM not a number', env: { STACKS_API_RPM: '1e9' }, error: /STACKS_API_RPM must be a whole number/ },
  {
    name: 'no config store and no config file',
    env: { WATCH_CONFIG: undefined, WATCH_CONFIG_FILE: '/nonexistent/watch.json' },
    error: /cannot read the watch config file \/nonexistent\/watch\.json \(ENOENT\); set WATCH_CONFIG_BUCKET \(the stack does\), or WATCH_CONFIG/,
  },
  {
    name: 'a secret the function may not read',
    env: { STACKS_API_KEY_SECRET_ARN: SECRET_ARN },
    secret: { rejects: 'AccessDeniedException' },
    error: new RegExp(`cannot read the API key secret ${SECRET_ARN}: AccessDeniedException; check that it exists and the function may read it`),
  },
  {
    name: 'a secret holding JSON without an apiKey field',
    env: { STACKS_API_KEY_SECRET_ARN: SECRET_ARN },
    secret: { holds: SECRET_TEXT },
    error: /holds JSON without a string "apiKey" field/,
  },
];

describe('the Lambda handler refuses a broken deployment', () => {
  const fake = createFakeHiro();
  const sns = mockClient(SNSClient);
  const secrets = mockClient(SecretsManagerClient);
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  let baseline: Record<string, string>;
  let output: string[];

  beforeAll(async () => {
    fake.chain.mine([]);
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'bad-setup-state' });
    baseline = {
      TABLE_NAME: dynamo.tableName,
      TOPIC_ARN,
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      WATCH_CONFIG: JSON.stringify({ network: 'mainnet', addresses: [alice], startHeight: 1 }),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
  });
  afterAll(async () => {
    sns.restore();
    secrets.restore();
    await server?.close();
    await dynamo?.close();
  });
  beforeEach(() => {
    sns.reset();
    secrets.reset();
    output = captureOutput();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  /** A cold start with the environment as given, then one invocation; its error, or null. */
  async function invoke(env: BadSetup['env']): Promise<Error | null> {
    for (const [name, value] of Object.entries({ ...baseline, ...env })) vi.stubEnv(name, value);
    const handler = await importHandler();
    return handler({}, context).then(
      () => null,
      (error: Error) => error,
    );
  }

  for (const setup of SETUPS) {
    it(`fails the invocation with a clear error and changes nothing: ${setup.name}`, async () => {
      if (setup.secret && 'rejects' in setup.secret) {
        secrets
          .on(GetSecretValueCommand)
          .rejects(Object.assign(new Error('not authorized to perform secretsmanager:GetSecretValue'), { name: setup.secret.rejects }));
      } else if (setup.secret) secrets.on(GetSecretValueCommand).resolves({ SecretString: setup.secret.holds });
      const requestsBefore = fake.requests.length;

      const error = await invoke(setup.env);

      expect(error?.message).toMatch(setup.error);
      expect(output.join('')).toMatch(/"level":"ERROR".*invocation failed/);
      expect(output.join('')).not.toContain('hiro-9f8e7d6c');
      const { Count } = await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName, Select: 'COUNT' }));
      expect(Count).toBe(0);
      expect(fake.requests.length).toBe(requestsBefore);
      expect(sns.commandCalls(PublishBatchCommand)).toHaveLength(0);
    });
  }

  it('runs with the same environment once it is fixed (the checks above fail for the reason they name)', async () => {
    expect(await invoke({})).toBeNull();
    const { Count } = await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName, Select: 'COUNT' }));
    expect(Count).toBeGreaterThan(0);
  });
});
