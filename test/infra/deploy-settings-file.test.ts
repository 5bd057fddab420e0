// The committed settings file: every synth reads it, so a plain `npx cdk deploy` keeps its subscribers; -c
// overrides one value for one deploy; a deploy that would drop a subscriber it lists is refused unless meant.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';
import { DEPLOY_SCHEMA_PATH, deploySchemaText } from '../../scripts/deploy-schema';
import { fixture, REPO_ROOT, synthStack } from './support/synth';

const withFile = (name: string, context: Record<string, unknown> = {}) => synthStack({ settingsFile: fixture(name), ...context });

/** Every SNS subscription of the template as `protocol endpoint`, sorted. */
function subscriptions(template: Template): string[] {
  return Object.values(template.findResources('AWS::SNS::Subscription'))
    .map((resource) => (resource as { Properties: { Protocol: string; Endpoint: unknown } }).Properties)
    .filter(({ Protocol }) => Protocol !== 'lambda')
    .map(({ Protocol, Endpoint }) => `${Protocol} ${String(Endpoint)}`)
    .sort();
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof DeploySettingsError) return error.problems;
    throw error;
  }
  throw new Error('expected the settings to be refused');
}

const FILE_SUBSCRIBERS = [
  'email cto@example.com',
  'email ops@example.com',
  'email team@example.com',
  'https https://hooks.example.com/stacks',
  'sms +14155550123',
];

describe('the deploy settings file', () => {
  it('gives a synth without -c every subscriber it lists, and its other settings', () => {
    const { template } = withFile('deploy-subscribers.json');
    expect(subscriptions(template)).toEqual(FILE_SUBSCRIBERS);
    template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(5 minutes)' });
  });

  it('lets -c override one value for one deploy and keeps the rest from the file', () => {
    const { template } = withFile('deploy-subscribers.json', { scheduleMinutes: '10' });
    template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(10 minutes)' });
    expect(subscriptions(template)).toEqual(FILE_SUBSCRIBERS);
  });

  it("lets -c add a subscriber to the file's list", () => {
    const { template } = withFile('deploy-subscribers.json', { alertEmails: 'team@example.com,cto@example.com,new@example.com' });
    expect(subscriptions(template)).toEqual([...FILE_SUBSCRIBERS, 'email new@example.com'].sort());
  });

  it('refuses a synth with fewer subscribers than the file, naming who would be dropped and the -c that did it', () => {
    const problems = problemsOf(() => withFile('deploy-subscribers.json', { alertEmails: 'team@example.com' }));
    expect(problems).toEqual([
      expect.stringMatching(
        /^this deploy would unsubscribe 1 of the 5 subscribers .*deploy-subscribers\.json lists \(cto@example\.com \(email\)\): -c alertEmails replaces .* -c allowFewerSubscribers=true to remove them on purpose$/,
      ),
    ]);
  });

  it('counts the operations list and phones too', () => {
    const problems = problemsOf(() => withFile('deploy-subscribers.json', { opsEmails: '[]', alertPhoneNumbers: '[]' }));
    expect(problems[0]).toMatch(
      /unsubscribe 2 of the 5 .*\(\+14155550123 \(sms\), ops@example\.com \(operations email\)\): -c alertPhoneNumbers, -c opsEmails replaces/,
    );
  });

  it('warns loudly when -c subscribes someone the file does not list: the next plain deploy would drop them', () => {
    const { stack } = withFile('deploy-subscribers.json', { alertEmails: 'cto@example.com,team@example.com,new@example.com' });
    Annotations.fromStack(stack).hasWarning(
      '/StacksWatch',
      Match.stringLikeRegexp(
        '-c alertEmails subscribes 1 that .*deploy-subscribers\\.json does not list \\(new@example\\.com \\(email\\)\\): the next deploy without that -c unsubscribes them; write them in .*deploy-subscribers\\.json',
      ),
    );
  });

  it('does not warn when the file lists every subscriber', () => {
    Annotations.fromStack(withFile('deploy-subscribers.json').stack).hasNoWarning('/StacksWatch', Match.stringLikeRegexp('does not list'));
  });

  it('counts chat channels too: a -c chat that leaves one out is refused, naming it, unless allowFewerSubscribers', () => {
    const file = { source: 'deploy.json', values: { chat: [{ slack: 'ssm:/stacks-watch/slack' }, { pagerduty: 'ssm:/stacks-watch/pagerduty' }] } };
    const context = (extra: Record<string, string>) => (key: string) => ({ chat: JSON.stringify([{ slack: 'ssm:/stacks-watch/slack' }]), ...extra })[key];
    const problems = problemsOf(() => readDeploySettings(context({}), REPO_ROOT, ['chat'], file));
    expect(problems).toEqual([
      expect.stringMatching(
        /^this deploy would unsubscribe 1 of the 2 subscribers deploy\.json lists \(pagerduty \/stacks-watch\/pagerduty \(chat\)\): -c chat replaces/,
      ),
    ]);
    const meant = readDeploySettings(context({ allowFewerSubscribers: 'true' }), REPO_ROOT, ['chat', 'allowFewerSubscribers'], file);
    expect(meant.chat.map((c) => `${c.channel} ${c.parameterName}`)).toEqual(['slack /stacks-watch/slack']);
  });

  it('drops subscribers when -c allowFewerSubscribers=true says it is meant', () => {
    const { template } = withFile('deploy-subscribers.json', { alertEmails: 'team@example.com', allowFewerSubscribers: 'true' });
    expect(subscriptions(template)).toEqual(FILE_SUBSCRIBERS.filter((s) => s !== 'email cto@example.com'));
  });

  it('names every problem of a bad file by its JSON path in the file, an unknown key with the one meant', () => {
    const problems = problemsOf(() => withFile('deploy-bad.json'));
    const source = fixture('deploy-bad.json');
    expect(problems).toEqual([
      `${source} at $.scheduleMinute: is not a setting; did you mean scheduleMinutes?`,
      `${source} at $.alertEmails[1]: "not-an-address" is not an email address`,
      expect.stringMatching(/at \$\.alertSubscriptions\[0\]\.sms: "555-0123" is not an E\.164 phone number/),
    ]);
  });

  it('refuses allowFewerSubscribers in the file: it is for one deploy, on the command line', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = `${mkdtempSync(`${tmpdir()}/stacks-watch-settings-`)}/deploy.json`;
    writeFileSync(path, JSON.stringify({ allowFewerSubscribers: true }));
    expect(problemsOf(() => synthStack({ settingsFile: path }))).toEqual([
      `${path} at $.allowFewerSubscribers: is for one deploy, not the file; give it with -c allowFewerSubscribers=… when you mean it`,
    ]);
  });

  it('names the line of a JSON mistake in the file', () => {
    const problems = problemsOf(() => withFile('deploy-trailing-comma.json'));
    expect(problems).toEqual([expect.stringMatching(/deploy-trailing-comma\.json has a trailing comma at line 2/)]);
  });

  it('says what to do when the file is missing', () => {
    expect(problemsOf(() => synthStack({ settingsFile: 'nowhere.json' }))[0]).toMatch(
      /^nowhere\.json not found .*copy deploy\.example\.json to it, or name another with -c settingsFile=PATH$/,
    );
  });

  it('ships deploy.json with no subscribers and the schema named, so the quick start synthesizes as it is', () => {
    const shipped = JSON.parse(readFileSync(`${REPO_ROOT}deploy.json`, 'utf8')) as Record<string, unknown>;
    expect(shipped.$schema).toBe('./deploy.schema.json');
    expect(subscriptions(synthStack({ settingsFile: `${REPO_ROOT}deploy.json` }).template)).toEqual([]);
  });

  it('ships deploy.example.json showing every setting, which synthesizes', () => {
    const example = JSON.parse(readFileSync(`${REPO_ROOT}deploy.example.json`, 'utf8')) as Record<string, unknown>;
    const schema = JSON.parse(readFileSync(DEPLOY_SCHEMA_PATH, 'utf8')) as { properties: Record<string, unknown> };
    expect(Object.keys(example).sort()).toEqual(Object.keys(schema.properties).sort());
    expect(subscriptions(synthStack({ settingsFile: `${REPO_ROOT}deploy.example.json` }).template)).toHaveLength(7);
  });
});

/** The functions told the state table, by logical id: the watcher (the schedule's) and, in the loop mode, the turns'. */
const stateFunctions = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, r]) => r.Properties.Environment?.Variables?.TABLE_NAME);

describe('what a deploy deploys when deploy.json says nothing else', () => {
  it('the shipped deploy.json deploys the loop at 128 MB: a turns function on the SQS queue, timing out within its delay', () => {
    const { loopDelaySeconds } = JSON.parse(readFileSync(`${REPO_ROOT}deploy.json`, 'utf8')) as { loopDelaySeconds: number };
    const { template } = synthStack({ settingsFile: `${REPO_ROOT}deploy.json` });
    const functions = stateFunctions(template);
    expect(functions.map(([id]) => id.includes('Turns')).sort()).toEqual([false, true]);
    expect(functions.map(([, fn]) => fn.Properties.MemorySize)).toEqual([128, 128]);
    const [turnsId, turns] = functions.find(([id]) => id.includes('Turns'))!;
    expect(turns.Properties.Timeout).toBeLessThanOrEqual(loopDelaySeconds);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: turnsId } });
    template.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: loopDelaySeconds });
  });

  it('a settings file naming no latency keeps the 1-minute schedule at 256 MB, with no loop', () => {
    const { template } = withFile('deploy-without-latency.json');
    const functions = stateFunctions(template);
    expect(functions.map(([, fn]) => fn.Properties.MemorySize)).toEqual([256]);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
    template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(1 minute)' });
  });
});

describe('deploy.schema.json', () => {
  const validate = () => new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(DEPLOY_SCHEMA_PATH, 'utf8')) as object);

  it("is what `npm run schema` writes from the settings' zod schema today", () => {
    expect(readFileSync(DEPLOY_SCHEMA_PATH, 'utf8')).toBe(deploySchemaText());
  });

  it('accepts every shipped settings file, "$schema" included', () => {
    for (const path of [
      'deploy.json',
      'deploy.example.json',
      'test/infra/fixtures/deploy-subscribers.json',
      'test/infra/fixtures/deploy-without-latency.json',
    ]) {
      const check = validate();
      expect(check(JSON.parse(readFileSync(`${REPO_ROOT}${path}`, 'utf8'))) ? [] : check.errors, path).toEqual([]);
    }
  });

  it.each([
    ['a misspelled key', { alertEmail: ['a@example.com'] }],
    ['a phone number without +', { alertPhoneNumbers: ['14155550123'] }],
    ['a schedule out of range', { scheduleMinutes: 0 }],
    ['a subscription with an unknown key', { alertSubscriptions: [{ email: 'a@example.com', severity: ['critical'] }] }],
  ])('flags %s', (_what, file) => {
    expect(validate()(file)).toBe(false);
  });
});
