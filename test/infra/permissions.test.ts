import { beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { onlyResource, type Synthesized, synthStack } from './support/synth';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro-key-AbCdEf';

let plain: Synthesized;
let withSecret: Synthesized;
let withCreatedSecret: Synthesized;
let withCustomerKey: Synthesized;

beforeAll(() => {
  plain = synthStack();
  withCustomerKey = synthStack({ encryptionKey: 'customer' });
  withSecret = synthStack({ apiKeySecretArn: SECRET_ARN });
  withCreatedSecret = synthStack({ createApiKeySecret: true, encryptionKey: 'customer' });
});

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Principal?: unknown };

const logicalId = (s: Synthesized, element: unknown) => s.stack.getLogicalId(element as CfnElement);
const arn = (template: Template, type: string) => ({ 'Fn::GetAtt': [onlyResource(template, type).id, 'Arn'] });

function policyStatementsOfRole(s: Synthesized, role: unknown): Statement[] {
  const roleId = logicalId(s, role);
  const policies = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((policy) =>
    (policy.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })),
  );
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

const functionStatements = (s: Synthesized) => policyStatementsOfRole(s, s.stack.watcher.role.node.defaultChild);

function expectedFunctionStatements(s: Synthesized): Statement[] {
  const { template } = s;
  return [
    {
      Effect: 'Allow',
      Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
      Resource: arn(template, 'AWS::DynamoDB::GlobalTable'),
    },
    {
      Effect: 'Allow',
      Action: 'sns:Publish',
      Resource: [{ Ref: logicalId(s, s.stack.topics.alerts.node.defaultChild) }, { Ref: logicalId(s, s.stack.topics.operations.node.defaultChild) }],
    },
    // aws/sns lets the account's principals use it through SNS: a grant is needed only for the stack's own key.
    ...(s.stack.topics.key ? [{ Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Resource: arn(template, 'AWS::KMS::Key') }] : []),
    { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: arn(template, 'AWS::Logs::LogGroup') },
    { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn(template, 'AWS::SQS::Queue') },
    {
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:GetObjectVersion'],
      Resource: s.stack.resolve(s.stack.watchConfigStore.bucket.arnForObjects('watch.json')),
    },
  ];
}

describe('the function role', () => {
  it('may use its table, publish to its alerts and ops topics (and no other) with their key, write its logs and dead letters, and nothing else', () => {
    expect(functionStatements(plain)).toEqual(expectedFunctionStatements(plain));
  });

  it('may also use the customer-managed topic key when the stack has one', () => {
    expect(functionStatements(withCustomerKey)).toContainEqual({
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
      Resource: arn(withCustomerKey.template, 'AWS::KMS::Key'),
    });
    expect(functionStatements(withCustomerKey)).toEqual(expectedFunctionStatements(withCustomerKey));
  });

  it('may also read the one existing secret it is given', () => {
    expect(functionStatements(withSecret)).toEqual([
      ...expectedFunctionStatements(withSecret),
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: SECRET_ARN },
    ]);
  });

  it('may also read the secret the stack creates', () => {
    expect(functionStatements(withCreatedSecret)).toEqual([
      ...expectedFunctionStatements(withCreatedSecret),
      {
        Effect: 'Allow',
        Action: 'secretsmanager:GetSecretValue',
        Resource: { Ref: onlyResource(withCreatedSecret.template, 'AWS::SecretsManager::Secret').id },
      },
    ]);
  });

  it('can be assumed by Lambda only', () => {
    const roleId = logicalId(plain, plain.stack.watcher.role.node.defaultChild);
    expect(plain.template.toJSON().Resources[roleId].Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });
});

describe('the watch config seed role', () => {
  it('may read the deploy asset of watch.json, put and read the one config object, write its logs, and nothing else', () => {
    const store = plain.stack.watchConfigStore;
    const role = store.node.findChild('SeedRole');
    const logs = store.node.findChild('SeedLogs');
    const statements = policyStatementsOfRole(plain, role.node.defaultChild);
    expect(statements).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: expect.objectContaining({ 'Fn::Join': expect.any(Array) }) },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: plain.stack.resolve(store.bucket.arnForObjects('watch.json')) },
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logicalId(plain, logs.node.defaultChild), 'Arn'] } },
    ]);
    expect(JSON.stringify(statements[0]!.Resource)).toContain('cdk-hnb659fds-assets');
  });
});

describe('the schedule role', () => {
  it('may invoke the function itself (no versions or aliases) and send to the dead-letter queue, nothing else', () => {
    const roleArn = plain.template.toJSON().Resources[onlyResource(plain.template, 'AWS::Scheduler::Schedule').id].Properties.Target.RoleArn;
    const roleId = roleArn['Fn::GetAtt'][0] as string;
    const statements = Object.values(plain.template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    expect(statements).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: arn(plain.template, 'AWS::Lambda::Function') },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: arn(plain.template, 'AWS::SQS::Queue') },
    ]);
  });
});

describe('every policy in the stack', () => {
  function allStatements(template: Template): Statement[] {
    const resources = Object.values(template.toJSON().Resources) as { Type: string; Properties: Record<string, any> }[];
    return resources.flatMap((resource) => {
      const p = resource.Properties ?? {};
      const documents = [p.PolicyDocument, p.KeyPolicy, p.AssumeRolePolicyDocument, ...(p.Policies ?? []).map((x: any) => x.PolicyDocument)];
      return documents.filter(Boolean).flatMap((document) => document.Statement as Statement[]);
    });
  }

  const actions = (statement: Statement) => [statement.Action].flat();

  it('is written out in the stack: no role carries an AWS managed policy', () => {
    const roles = Object.values(withCreatedSecret.template.findResources('AWS::IAM::Role'));
    expect(roles.map((role) => role.Properties.ManagedPolicyArns)).toEqual([undefined, undefined, undefined]);
  });

  it('allows no wildcard action', () => {
    const allows = allStatements(withCreatedSecret.template).filter((s) => s.Effect === 'Allow');
    expect(allows.length).toBeGreaterThan(10);
    expect(allows.flatMap(actions).filter((action) => action.includes('*'))).toEqual([]);
  });

  it('grants "*" as a resource only in the key policy, where it means the key itself', () => {
    const keyPolicy = onlyResource(withCreatedSecret.template, 'AWS::KMS::Key').resource.Properties.KeyPolicy.Statement as Statement[];
    const starResources = allStatements(withCreatedSecret.template).filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Resource ?? null).includes('*'));
    expect(starResources).toEqual(keyPolicy);
    expect(allStatements(plain.template).filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Resource ?? null).includes('*'))).toEqual([]);
  });

  it('still lets the account manage the key without kms:*: change its policy, disable it, delete it', () => {
    const keyPolicy = onlyResource(withCustomerKey.template, 'AWS::KMS::Key').resource.Properties.KeyPolicy.Statement as Statement[];
    const accountActions = keyPolicy.filter((s) => JSON.stringify(s.Principal).includes(':root')).flatMap(actions);
    expect(accountActions).toEqual(expect.arrayContaining(['kms:PutKeyPolicy', 'kms:DisableKey', 'kms:ScheduleKeyDeletion']));
  });
});
