// The chat notifiers in the template: one function and one filtered subscription per declared channel, each
// allowed to read only its own SSM parameter, no secret value anywhere, a dead-letter queue whose alarm pages
// ops, and cdk-nag clean.
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { synthStack } from './support/synth';
import { readDeploySettings } from '../../infra/settings/deploy-settings';
import { NOTIFIER_CONCURRENCY } from '../../infra/constructs/chat-notifiers';
import { chatChannels } from '../../lambda/channels/registry';

const CHAT = [
  { slack: 'ssm:/stacks-watch/slack-ops', severities: ['critical', 'warning'] },
  { pagerduty: 'ssm:/stacks-watch/pagerduty', types: ['token_transfer', 'retraction'] },
];

describe('chat channels in the stack', () => {
  const { template, stack } = synthStack({ chat: JSON.stringify(CHAT) });

  it("has a notifier per channel, told only its channel and its parameter's name", () => {
    const notifiers = template.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { CHAT_CHANNEL: Match.anyValue() } } } });
    const variables = Object.values(notifiers).map(
      (r) => (r as { Properties: { Environment: { Variables: Record<string, string> } } }).Properties.Environment.Variables,
    );
    expect(variables.map((v) => [v.CHAT_CHANNEL, v.CHAT_PARAMETER])).toEqual([
      ['slack', '/stacks-watch/slack-ops'],
      ['pagerduty', '/stacks-watch/pagerduty'],
    ]);
    for (const v of variables)
      expect(Object.keys(v).sort()).toEqual(['CHAT_CHANNEL', 'CHAT_PARAMETER', 'NODE_OPTIONS', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
  });

  it('reserves 2 concurrent executions per notifier, so a burst of alerts waits its turn rather than flooding the chat API', () => {
    const notifiers = template.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { CHAT_CHANNEL: Match.anyValue() } } } });
    const reserved = Object.values(notifiers).map(
      (r) => (r as { Properties: { ReservedConcurrentExecutions?: number } }).Properties.ReservedConcurrentExecutions,
    );
    expect(reserved).toEqual([NOTIFIER_CONCURRENCY, NOTIFIER_CONCURRENCY]);
    expect(NOTIFIER_CONCURRENCY).toBe(2);
  });

  it('reserves nothing for the notifiers when reserveConcurrency is off (an account whose quota has no room to reserve)', () => {
    const { template: unreserved } = synthStack({ chat: JSON.stringify(CHAT), reserveConcurrency: false });
    const notifiers = unreserved.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { CHAT_CHANNEL: Match.anyValue() } } } });
    for (const r of Object.values(notifiers)) expect((r as { Properties: Record<string, unknown> }).Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('subscribes each to the alerts topic with its own filter, never the SMS digest', () => {
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription', { Properties: { Protocol: 'lambda' } }));
    expect(subscriptions).toHaveLength(2);
    const policies = subscriptions.map((s) => JSON.stringify((s as { Properties: { FilterPolicy: unknown } }).Properties.FilterPolicy));
    expect(policies[0]).toContain('"severity":["critical","warning"]');
    expect(policies[1]).toContain('"type":["token_transfer","retraction"]');
    for (const policy of policies) expect(policy).toContain('digest');
  });

  it('lets each notifier read its own parameter and nothing else', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) => (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } } }).Properties.PolicyDocument.Statement,
    );
    const ssm = statements.filter((s) => JSON.stringify(s.Action).includes('ssm:'));
    expect(ssm.map((s) => s.Action)).toEqual(['ssm:GetParameter', 'ssm:GetParameter']);
    expect(ssm.map((s) => JSON.stringify(s.Resource))).toEqual([
      expect.stringContaining(':parameter/stacks-watch/slack-ops'),
      expect.stringContaining(':parameter/stacks-watch/pagerduty'),
    ]);
  });

  it('pages the operations topic when a channel keeps refusing alerts', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('chat channel did not take an alert'),
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('TopicsOperations') })],
    });
  });

  it('is clean under cdk-nag AwsSolutions', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('adds nothing without chat channels', () => {
    const { template: plain } = synthStack();
    expect(Object.keys(plain.findResources('AWS::SNS::Subscription', { Properties: { Protocol: 'lambda' } }))).toEqual([]);
  });
});

describe('the chat setting', () => {
  const problems = (chat: unknown) => {
    try {
      readDeploySettings((key) => (key === 'chat' ? JSON.stringify(chat) : undefined));
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses an entry naming no channel or two, a secret written in place of its parameter, and a repeat', () => {
    expect(problems([{ severities: ['critical'] }])).toContain(
      `needs exactly one of ${Object.keys(chatChannels)
        .map((name) => `"${name}"`)
        .join(', ')}`,
    );
    expect(problems([{ slack: 'ssm:/a', discord: 'ssm:/b' }])).toContain('needs exactly one of');
    expect(problems([{ slack: 'https://hooks.slack.com/services/T/B/X' }])).toContain('must name an SSM parameter as "ssm:/path/name"');
    expect(problems([{ slack: 'ssm:/a' }, { slack: 'ssm:/a' }])).toContain('chat lists slack with /a twice');
    expect(problems([{ teams: 'ssm:/a' }])).toMatch(/teams|unrecognized|unknown/i);
  });
});
