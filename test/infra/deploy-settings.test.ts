import { describe, expect, it } from 'vitest';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';

const read = (context: Record<string, unknown>) => readDeploySettings((key) => context[key], '/repo', Object.keys(context));

function problemsOf(context: Record<string, unknown>): string[] {
  try {
    read(context);
  } catch (error) {
    if (error instanceof DeploySettingsError) return error.problems;
    throw error;
  }
  throw new Error('expected the settings to be rejected');
}

describe('deploy settings from CDK context', () => {
  it('defaults to a one-minute schedule, 256 MB, 120 s, no key, protected table and watch.json beside the app', () => {
    expect(read({})).toEqual({
      stackName: 'StacksWatch',
      watchConfigPath: '/repo/watch.json',
      alertSubscriptions: [],
      chat: [],
      opsEmails: [],
      scheduleMinutes: 1,
      latency: 'schedule',
      loopDelaySeconds: 8,
      memorySize: 256,
      timeoutSeconds: 120,
      apiKey: { kind: 'none' },
      deletionProtection: true,
      lagAlarmSeconds: 600,
      logRetentionDays: RetentionDays.ONE_MONTH,
      logLevel: 'INFO',
      serviceName: 'stacks-watch',
      metricsNamespace: 'StacksWatch',
      reserveConcurrency: true,
      dashboard: false,
      encryptionKey: 'aws-managed',
      detailedMetrics: false,
      replaceWatchConfig: false,
    });
  });

  it('reads command-line strings: numbers, booleans and comma-separated lists', () => {
    const settings = read({
      scheduleMinutes: '5',
      memorySize: '512',
      deletionProtection: 'false',
      alertEmails: 'a@example.com, b@example.com',
      alertPhoneNumbers: '+14155550123',
      logRetentionDays: '90',
    });
    expect(settings).toMatchObject({
      scheduleMinutes: 5,
      memorySize: 512,
      deletionProtection: false,
      logRetentionDays: RetentionDays.THREE_MONTHS,
      alertSubscriptions: [
        { protocol: 'email', endpoint: 'a@example.com', filter: {} },
        { protocol: 'email', endpoint: 'b@example.com', filter: {} },
        { protocol: 'sms', endpoint: '+14155550123', filter: {} },
      ],
    });
  });

  it('reads JSON values from cdk.json and JSON text from the command line alike', () => {
    const subscription = { email: 'ops@example.com', types: ['token_transfer'] };
    const fromJson = read({ opsEmails: ['x@example.com'], alertSubscriptions: [subscription] });
    const fromText = read({ opsEmails: '["x@example.com"]', alertSubscriptions: JSON.stringify([subscription]) });
    expect(fromText).toEqual(fromJson);
    expect(fromJson.alertSubscriptions).toEqual([{ protocol: 'email', endpoint: 'ops@example.com', filter: { types: ['token_transfer'] } }]);
  });

  it('resolves the watch config path against the working directory', () => {
    expect(read({ watchConfig: 'config/prod.json' }).watchConfigPath).toBe('/repo/config/prod.json');
  });

  it('rejects a phone number that is not E.164, naming the value and the expected form', () => {
    expect(problemsOf({ alertPhoneNumbers: '+1 415 555 0123' })).toEqual([
      expect.stringMatching(/^alertPhoneNumbers\[0\]: "\+1 415 555 0123" is not an E\.164 phone number: .*e\.g\. \+14155550123/),
    ]);
  });

  it('names a bad phone number from a comma-separated list or a JSON subscription once, without "(found: undefined)"', () => {
    const problems = [...problemsOf({ alertPhoneNumbers: '+14155550123,555-0123' }), ...problemsOf({ alertSubscriptions: '[{"sms": "0123"}]' })];
    expect(problems).toEqual([
      expect.stringMatching(/^alertPhoneNumbers\[1\]: "555-0123" is not an E\.164 phone number: .*\(e\.g\. \+14155550123\)$/),
      expect.stringMatching(/^alertSubscriptions\[0\]\.sms: "0123" is not an E\.164 phone number: .*\(e\.g\. \+14155550123\)$/),
    ]);
    expect(problems.join('\n')).not.toContain('found:');
  });

  it('rejects a context key that is not a setting, suggesting the one meant', () => {
    expect(problemsOf({ alertEmail: 'you@example.com', loopDelaySecond: '10', memory: '512' })).toEqual([
      'alertEmail: is not a setting; did you mean alertEmails?',
      'loopDelaySecond: is not a setting; did you mean loopDelaySeconds?',
      'memory: is not a setting; did you mean memorySize?',
    ]);
  });

  it('lists the settings for an unknown key close to none, alongside the other problems', () => {
    const problems = problemsOf({ colour: 'blue', scheduleMinutes: '0' });
    expect(problems[0]).toMatch(/^colour: is not a setting; the settings are alertEmails, .*watchConfig$/);
    expect(problems[1]).toMatch(/^scheduleMinutes: must be/);
  });

  it("leaves the CDK's own context alone: feature flags, aws:cdk settings and cached lookups", () => {
    expect(() =>
      read({
        '@aws-cdk/core:checkSecretUsage': true,
        'aws:cdk:bundling-stacks': [],
        'availability-zones:account=1:region=x': [],
        'acknowledged-issue-numbers': [1],
      }),
    ).not.toThrow();
  });

  it('rejects a phone number without the leading +', () => {
    expect(problemsOf({ alertPhoneNumbers: ['14155550123'] })[0]).toMatch(/^alertPhoneNumbers\[0\]: "14155550123" is not an E\.164/);
  });

  it('rejects an email address that is not one', () => {
    expect(problemsOf({ opsEmails: 'ops@' })[0]).toMatch(/^opsEmails\[0\]: "ops@" is not an email address/);
  });

  it('reports every bad key at once, each with what it must be and what was found', () => {
    const problems = problemsOf({ scheduleMinutes: '0', memorySize: 'lots', logRetentionDays: 31, logLevel: 'LOUD' });
    expect(problems).toEqual([
      'scheduleMinutes: must be a whole number of minutes from 1 to 60 (found: "0")',
      'memorySize: must be a whole number of MB from 128 to 10240 (found: "lots")',
      expect.stringMatching(/^logRetentionDays: must be a number of days CloudWatch Logs accepts: 1, 3, 5, .* \(found: 31\)$/),
      'logLevel: must be DEBUG, INFO, WARN or ERROR (found: "LOUD")',
    ]);
  });

  it('ends its message with where settings are set: deploy.json, -c for one deploy', () => {
    expect(() => read({ scheduleMinutes: 'x' })).toThrow(/Write them in deploy\.json .*; -c key=value overrides one for one deploy\./);
  });

  it('rejects an endpoint subscribed twice, since SNS keeps one subscription per endpoint', () => {
    const problems = problemsOf({
      alertEmails: 'ops@example.com',
      alertSubscriptions: [{ email: 'OPS@example.com', types: ['deep_reorg'] }],
    });
    expect(problems).toEqual([expect.stringMatching(/^OPS@example\.com is subscribed more than once .* keep one/)]);
  });

  it('takes an existing API key secret by its complete ARN', () => {
    const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro/api-key-AbCdEf';
    expect(read({ apiKeySecretArn: secretArn }).apiKey).toEqual({ kind: 'existing', secretArn });
  });

  it('rejects a secret ARN without the six-character suffix Secrets Manager adds', () => {
    expect(problemsOf({ apiKeySecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro' })[0]).toMatch(
      /^apiKeySecretArn: must be the complete ARN/,
    );
  });

  it('creates a secret on request', () => {
    expect(read({ createApiKeySecret: 'true' }).apiKey).toEqual({ kind: 'created' });
  });

  it('rejects both an existing secret and a created one', () => {
    const problems = problemsOf({
      apiKeySecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro-AbCdEf',
      createApiKeySecret: true,
    });
    expect(problems).toEqual(['apiKeySecretArn and createApiKeySecret=true both name the API key secret; keep one']);
  });

  it('reads the latency mode and the loop delay, and refuses an unknown mode', () => {
    expect(read({ latency: 'loop', loopDelaySeconds: '6' })).toMatchObject({ latency: 'loop', loopDelaySeconds: 6 });
    expect(problemsOf({ latency: 'fast' })).toEqual([expect.stringMatching(/^latency: must be schedule or loop/)]);
    expect(problemsOf({ latency: 'loop', loopDelaySeconds: 0 })[0]).toMatch(/^loopDelaySeconds: /);
  });

  it('refuses polling inside the invocation (pollSeconds), naming the loop that replaces it', () => {
    const retired = /^pollSeconds: polling inside the invocation is retired; set "latency": "loop" instead/;
    expect(problemsOf({ pollSeconds: '10' })).toEqual([expect.stringMatching(retired)]);
    expect(problemsOf({ pollSeconds: 10, latency: 'loop' })).toEqual([expect.stringMatching(retired)]);
    const fromFile = () => readDeploySettings(() => undefined, '/repo', [], { source: 'deploy.json', values: { pollSeconds: 15 } });
    expect(fromFile).toThrow(DeploySettingsError);
    expect(fromFile).toThrow(/deploy\.json at \$\.pollSeconds: polling inside the invocation is retired; set "latency": "loop" instead .*docs\/latency\.md/);
  });

  it('still deploys a deploy.json that sets pollSeconds to 0 (off), as deploy.example.json once showed it', () => {
    const settings = readDeploySettings(() => undefined, '/repo', [], { source: 'deploy.json', values: { pollSeconds: 0 } });
    expect(settings).toMatchObject({ latency: 'schedule', timeoutSeconds: 120 });
    expect(settings).not.toHaveProperty('pollSeconds');
    expect(read({ pollSeconds: '0' })).not.toHaveProperty('pollSeconds');
  });

  it('keeps the given timeout, even below the interval', () => {
    expect(read({ scheduleMinutes: 10, timeoutSeconds: 60 }).timeoutSeconds).toBe(60);
  });

  it('rejects a stack name CloudFormation would refuse', () => {
    expect(problemsOf({ stackName: 'stacks_watch' })[0]).toMatch(/^stackName: must start with a letter/);
  });

  it('rejects a Stacks API URL that is not https', () => {
    expect(problemsOf({ stacksApiUrl: 'http://api.hiro.so' })[0]).toMatch(/^stacksApiUrl: must be an https:\/\/ URL/);
  });
});
