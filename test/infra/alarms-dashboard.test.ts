import { beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { onlyResource, type Synthesized, synthStack } from './support/synth';
import { ALERT_TYPES } from '../../lambda/core/alert-kinds/registry';

let defaults: Synthesized;
let custom: Synthesized;
let withDashboard: Synthesized;

beforeAll(() => {
  defaults = synthStack();
  custom = synthStack({ scheduleMinutes: 15, lagAlarmSeconds: 1800, serviceName: 'watch-testnet', metricsNamespace: 'Watch', detailedMetrics: 'true' });
  // Detailed metrics bring the lag metric's alarm and the dashboard with them.
  withDashboard = synthStack({ detailedMetrics: 'true' });
});

const alarmProps = (s: Synthesized, pick: (alarms: Synthesized['stack']['alarms']) => Alarm) => {
  const id = s.stack.getLogicalId(pick(s.stack.alarms).node.defaultChild as CfnElement);
  return s.template.toJSON().Resources[id].Properties as Record<string, unknown>;
};
const operationsTopic = (s: Synthesized) => ({ Ref: s.stack.getLogicalId(s.stack.topics.operations.node.defaultChild as CfnElement) });

describe('alarms', () => {
  it('are, by default, two on metrics AWS emits for free (a failed or lost run in the dead-letter queue, no invocation), each telling the operations topic when it fires and when it clears', () => {
    const alarms = Object.values(defaults.template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.map((alarm) => alarm.Properties.MetricName).sort()).toEqual(['ApproximateNumberOfMessagesVisible', 'Invocations']);
    expect(new Set(alarms.map((alarm) => alarm.Properties.Namespace))).toEqual(new Set(['AWS/Lambda', 'AWS/SQS']));
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([operationsTopic(defaults)]);
      expect(alarm.Properties.OKActions).toEqual([operationsTopic(defaults)]);
    }
    expect(defaults.stack.alarms.chainLag).toBeUndefined();
    // Every failed run lands in the dead-letter queue (a scheduled one by Lambda, a loop turn by itself):
    // an alarm on the function's errors would only page twice for it.
    expect(defaults.stack.alarms.functionErrors).toBeUndefined();
  });

  it('fire when the function was not invoked in five minutes, no data counting as none (a schedule that stopped)', () => {
    expect(alarmProps(defaults, (a) => a.noInvocations)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: onlyResource(defaults.template, 'AWS::Lambda::Function').id } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'breaching',
    });
  });

  it('give the function the lag limit its schedule tick judges the cursor by', () => {
    const limitOf = (s: Synthesized) => onlyResource(s.template, 'AWS::Lambda::Function').resource.Properties.Environment.Variables.LAG_ALARM_SECONDS;
    expect(limitOf(defaults)).toBe('600');
    expect(limitOf(custom)).toBe('1800');
  });

  it('with detailed metrics, fire on any function error too (within a minute of it, where the queue metric may come later)', () => {
    expect(alarmProps(withDashboard, (a) => a.functionErrors!)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: onlyResource(withDashboard.template, 'AWS::Lambda::Function').id } }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
    });
  });

  it('fire when the dead-letter queue holds a message', () => {
    expect(alarmProps(defaults, (a) => a.deadLetters)).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [onlyResource(defaults.template, 'AWS::SQS::Queue').id, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('leave parked alerts to the notice the function sends the operations topic, unless detailed metrics are on', () => {
    expect(defaults.stack.alarms.undeliverableAlerts).toBeUndefined();
  });

  it('with detailed metrics, fire on any alert parked as undeliverable, on the service dimension Powertools emits, with no data meaning none', () => {
    expect(alarmProps(withDashboard, (a) => a.undeliverableAlerts!)).toMatchObject({
      Namespace: 'StacksWatch',
      MetricName: 'AlertsUndeliverable',
      Dimensions: [{ Name: 'service', Value: 'stacks-watch' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('with detailed metrics, fire when the chain lag passes the threshold, on the service dimension Powertools emits', () => {
    expect(alarmProps(withDashboard, (a) => a.chainLag!)).toMatchObject({
      Namespace: 'StacksWatch',
      MetricName: 'ChainLagSeconds',
      Dimensions: [{ Name: 'service', Value: 'stacks-watch' }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 600,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
    });
  });

  it('with detailed metrics, count a silent watcher as lagging', () => {
    expect(alarmProps(withDashboard, (a) => a.chainLag!).TreatMissingData).toBe('breaching');
  });

  it('measure lag over at least one schedule interval, with the threshold, namespace and service from context', () => {
    expect(alarmProps(custom, (a) => a.chainLag!)).toMatchObject({
      Namespace: 'Watch',
      Dimensions: [{ Name: 'service', Value: 'watch-testnet' }],
      Period: 900,
      Threshold: 1800,
    });
  });
});

describe('dashboard', () => {
  it('is not in the stack unless asked for (detailed metrics, or the dashboard setting), nor its output', () => {
    defaults.template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    expect(Object.keys(defaults.template.findOutputs('*'))).not.toContain('DashboardUrl');
    expect(Object.keys(withDashboard.template.findOutputs('*'))).toContain('DashboardUrl');
  });

  it('warns at synth that its graphs need detailed metrics when asked for without them', () => {
    const warnings = (s: Synthesized) => Annotations.fromStack(s.stack).findWarning('*', Match.stringLikeRegexp('detailedMetrics=true')).length;
    expect(warnings(synthStack({ dashboard: 'true' }))).toBe(1);
    expect(warnings(withDashboard)).toBe(0);
  });

  let body: { widgets: { properties: { title: string; metrics?: unknown[][] } }[] };

  beforeAll(() => {
    // The body is a Fn::Join of text and references; the references are irrelevant to its layout.
    const parts = onlyResource(withDashboard.template, 'AWS::CloudWatch::Dashboard').resource.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join(''));
  });

  const metricsOf = (titleStart: string) => {
    const widget = body.widgets.find((w) => w.properties.title.startsWith(titleStart));
    if (!widget) throw new Error(`no widget titled "${titleStart}..."`);
    return (widget.properties.metrics ?? []).map((metric) =>
      metric
        .filter((part) => typeof part === 'string')
        .slice(0, 2)
        .join('/'),
    );
  };

  it('shows the chain lag in seconds and blocks', () => {
    expect(metricsOf('Chain lag')).toEqual(['StacksWatch/ChainLagSeconds', 'StacksWatch/ChainLagBlocks']);
  });

  it('shows blocks scanned and reorgs', () => {
    expect(metricsOf('Blocks scanned')).toEqual(['StacksWatch/BlocksScanned', 'StacksWatch/ReorgsDetected', 'StacksWatch/DeepReorgs']);
  });

  it('shows alerts published for every alert type', () => {
    const widget = body.widgets.find((w) => w.properties.title.startsWith('Alerts published'));
    const types = (widget?.properties.metrics ?? []).map((metric) => metric[metric.indexOf('type') + 1]);
    // Every kind of the registry, in its order: a new kind shows on the dashboard without editing this test.
    expect(types).toEqual(ALERT_TYPES);
  });

  it('shows API requests, 429s and other API errors', () => {
    expect(metricsOf('Stacks API')).toEqual(['StacksWatch/ApiRequests', 'StacksWatch/ApiThrottled', 'StacksWatch/ApiErrors']);
  });

  it('shows run duration and failures', () => {
    expect(metricsOf('Run duration')).toEqual(['AWS/Lambda/Duration', 'AWS/Lambda/Duration', 'StacksWatch/CycleDurationMs']);
    expect(metricsOf('Failures')).toEqual(['AWS/Lambda/Errors', 'AWS/Lambda/Throttles', 'AWS/SQS/ApproximateNumberOfMessagesVisible']);
  });

  it("in the loop mode, graphs the turns function's duration, errors and throttles beside the watcher's", () => {
    const loop = synthStack({ detailedMetrics: 'true', latency: 'loop' });
    const turnsId = loop.stack.getLogicalId(loop.stack.watcher.turns!.node.defaultChild as CfnElement);
    const watcherId = loop.stack.getLogicalId(loop.stack.watcher.function.node.defaultChild as CfnElement);
    // The body with each reference written as the logical id it names, so that a metric shows whose it is.
    const parts = onlyResource(loop.template, 'AWS::CloudWatch::Dashboard').resource.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const text = parts.map((part) => (typeof part === 'string' ? part : ((part as { Ref?: string }).Ref ?? 'REF'))).join('');
    const widgets = (JSON.parse(text) as typeof body).widgets;
    const lambdaMetrics = (titleStart: string) =>
      (widgets.find((w) => w.properties.title.startsWith(titleStart))?.properties.metrics ?? [])
        .filter((metric) => metric[0] === 'AWS/Lambda')
        .map((metric) => `${metric[1]}:${metric[3]}`);
    expect(lambdaMetrics('Run duration')).toEqual([`Duration:${watcherId}`, `Duration:${watcherId}`, `Duration:${turnsId}`, `Duration:${turnsId}`]);
    expect(lambdaMetrics('Failures')).toEqual([`Errors:${watcherId}`, `Throttles:${watcherId}`, `Errors:${turnsId}`, `Throttles:${turnsId}`]);
  });

  it('shows the state of every alarm', () => {
    const widget = body.widgets.find((w) => w.properties.title === 'Alarms') as unknown as { properties: { alarms: unknown[] } };
    expect(widget.properties.alarms).toHaveLength(5);
  });
});
