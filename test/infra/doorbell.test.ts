// The doorbell's resources (docs/doorbell.md): a function URL with in-function authentication, its shared
// secret, one concurrent ring at most, the watcher's own role and environment; and none of it unless asked.
import { readDeploySettings } from '../../infra/settings/deploy-settings';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { synthStack } from './support/synth';

type Template = ReturnType<typeof synthStack>['template'];
const doorbellFunction = (template: Template) =>
  Object.values(template.findResources('AWS::Lambda::Function')).filter((r) => r.Properties.Environment?.Variables?.DOORBELL_SECRET_ARN);
const watcherFunction = (template: Template) =>
  Object.values(template.findResources('AWS::Lambda::Function')).find(
    (r) => r.Properties.Environment?.Variables?.TABLE_NAME && !r.Properties.Environment.Variables.DOORBELL_SECRET_ARN,
  )!;
const read = (context: Record<string, unknown>) => readDeploySettings((key) => context[key], '/repo', Object.keys(context));
const problemsOf = (context: Record<string, unknown>): string[] => {
  try {
    read(context);
    return [];
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
};

describe('the doorbell (doorbell=true)', () => {
  const { stack, template } = synthStack({ doorbell: true });

  it('opens a function URL with auth type NONE, the function checking the signature itself', () => {
    const urls = Object.values(template.findResources('AWS::Lambda::Url'));
    expect(urls).toHaveLength(1);
    expect(urls[0]!.Properties.AuthType).toBe('NONE');
    expect(urls[0]!.Properties.Cors).toBeUndefined();
  });

  it("runs one ring at a time (reserved concurrency 1) with the watcher's role, logs and environment", () => {
    const [doorbell] = doorbellFunction(template);
    const watcher = watcherFunction(template).Properties;
    expect(doorbell!.Properties.ReservedConcurrentExecutions).toBe(1);
    expect(doorbell!.Properties.Role).toEqual(watcher.Role);
    expect(doorbell!.Properties.LoggingConfig).toEqual(watcher.LoggingConfig);
    const { DOORBELL_SECRET_ARN, ...shared } = doorbell!.Properties.Environment.Variables;
    expect(shared).toEqual(watcher.Environment.Variables);
    expect(JSON.stringify(DOORBELL_SECRET_ARN)).toMatch(/DoorbellSecret/);
  });

  it("creates a generated shared secret the watcher's role may read", () => {
    const secrets = Object.values(template.findResources('AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(
      statements.some(
        (s: { Action: unknown; Resource: unknown }) =>
          JSON.stringify(s.Action).includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes('DoorbellSecret'),
      ),
    ).toBe(true);
  });

  it('names the URL and the secret in the stack outputs', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs.some((o) => /^DoorbellUrl/.test(o))).toBe(true);
    expect(outputs.some((o) => /^DoorbellSecretArn/.test(o))).toBe(true);
  });

  it("passes cdk-nag AwsSolutions, the secret's rotation acknowledged with its reason", () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('uses an existing secret when given its ARN, creating none', () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stacks-watch/doorbell-AbCdEf';
    const { template: existing } = synthStack({ doorbell: JSON.stringify({ secretArn: arn }) });
    expect(Object.keys(existing.findResources('AWS::SecretsManager::Secret'))).toHaveLength(0);
    expect(doorbellFunction(existing)[0]!.Properties.Environment.Variables.DOORBELL_SECRET_ARN).toBe(arn);
  });

  it('adds no URL, doorbell function or secret to the default stack', () => {
    const { template: plain } = synthStack();
    expect(Object.keys(plain.findResources('AWS::Lambda::Url'))).toHaveLength(0);
    expect(doorbellFunction(plain)).toHaveLength(0);
    expect(Object.keys(plain.findResources('AWS::SecretsManager::Secret'))).toHaveLength(0);
  });
});

describe('the doorbell setting', () => {
  it('reads true, false and an existing secret, and is off by default', () => {
    expect(read({}).doorbell).toBeUndefined();
    expect(read({ doorbell: 'false' }).doorbell).toBeUndefined();
    expect(read({ doorbell: true }).doorbell).toEqual({ secret: { kind: 'created' } });
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bell-AbCdEf';
    expect(read({ doorbell: { secretArn: arn } }).doorbell).toEqual({ secret: { kind: 'existing', secretArn: arn } });
  });

  it('names what is wrong with a bad value', () => {
    expect(problemsOf({ doorbell: 'yes' })).toEqual([expect.stringMatching(/^doorbell: must be true, false or \{ "secretArn"/)]);
    expect(problemsOf({ doorbell: { secretArn: 'my-secret' } })[0]).toMatch(/^doorbell/);
    expect(problemsOf({ doorbell: { secretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:bell-AbCdEf', extra: 1 } })[0]).toMatch(/^doorbell/);
  });

  it('refuses the doorbell with the loop, and without reserved concurrency', () => {
    expect(problemsOf({ doorbell: true, latency: 'loop' })).toEqual([expect.stringMatching(/^doorbell: the loop already looks/)]);
    expect(problemsOf({ doorbell: true, reserveConcurrency: false })).toEqual([expect.stringMatching(/^doorbell: needs reserveConcurrency/)]);
  });
});
