// The loop mode's resources (docs/latency.md): the turns queue (encrypted, SSL only, no redrive: its one message
// is received again every turn; its visibility timeout the loop's delay), the turns' own function (timing out
// within that delay) and its SQS event source reporting batch item failures, that function allowed to invoke
// itself through it, and nothing of it by default.
import { Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { onlyResource, synthStack } from './support/synth';

type Template = ReturnType<typeof synthStack>['template'];
/** The functions told the state table: the watcher (the schedule's), and in the loop mode the turns'. */
const stateFunctions = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, r]) => r.Properties.Environment?.Variables?.TABLE_NAME);
const turnsFunction = (template: Template) => stateFunctions(template).find(([id]) => id.includes('Turns'))![1];
const watcherFunction = (template: Template) => stateFunctions(template).find(([id]) => !id.includes('Turns'))![1];
const turnsQueue = (template: Template) => Object.entries(template.findResources('AWS::SQS::Queue')).find(([id]) => id.includes('LoopTurns'))![1].Properties;

describe('the loop mode (latency=loop)', () => {
  const { stack, template } = synthStack({ latency: 'loop', loopDelaySeconds: 7 });

  it("keeps the loop's message on an encrypted queue with no redrive policy, for SQS's 14 days, hidden for the loop's delay", () => {
    const turns = Object.entries(template.findResources('AWS::SQS::Queue')).filter(([id]) => id.includes('LoopTurns'));
    expect(turns).toHaveLength(1);
    const queue = turns[0]![1].Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.VisibilityTimeout).toBe(7);
    expect(queue.ReceiveMessageWaitTimeSeconds).toBe(20);
    expect(queue.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    // Every turn is a receive of the same message: a redrive policy would move the live loop away.
    expect(queue.RedrivePolicy).toBeUndefined();
    expect(Object.keys(template.findResources('AWS::SQS::Queue', { Properties: { RedrivePolicy: Match.anyValue() } }))).toEqual([]);
  });

  it('refuses every request to the turns queue that is not over TLS', () => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    const turnsPolicy = policies.find((p) => JSON.stringify(p.Properties.Queues).includes('LoopTurns'));
    expect(turnsPolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it("makes the queue the turns function's event source, one turn a batch, the least concurrency, its turn's message reported failed to keep it", () => {
    const { resource } = onlyResource(template, 'AWS::Lambda::EventSourceMapping');
    const [turnsId] = stateFunctions(template).find(([id]) => id.includes('Turns'))!;
    expect(resource.Properties.FunctionName).toEqual({ Ref: turnsId });
    expect(resource.Properties.BatchSize).toBe(1);
    expect(resource.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 2 });
    expect(resource.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(resource.Properties.MaximumBatchingWindowInSeconds).toBeUndefined();
    expect(JSON.stringify(resource.Properties.EventSourceArn)).toMatch(/LoopTurns/);
  });

  it('allows the turns function, and only it, to invoke itself through the queue', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const allowed = functions.filter((f) => f.Properties.RecursiveLoop === 'Allow');
    expect(allowed).toEqual([turnsFunction(template)]);
  });

  it('tells both functions the queue, the delay and the turn length (the delay less its margin), and reserves two turns beside one tick', () => {
    for (const fn of [watcherFunction(template), turnsFunction(template)]) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ LOOP_DELAY_SECONDS: '7', LOOP_TURN_SECONDS: '4', LOOP_QUEUE_URL: expect.anything() });
    }
    expect(watcherFunction(template).Properties.ReservedConcurrentExecutions).toBe(1);
    expect(turnsFunction(template).Properties.ReservedConcurrentExecutions).toBe(2);
  });

  it("runs the turns in a function of the watcher's bundle, role and log group, timing out at the delay; the schedule's ticks keep the deploy's timeout", () => {
    const [watcher, turns] = [watcherFunction(template).Properties, turnsFunction(template).Properties];
    expect(turns.Timeout).toBe(7);
    expect(watcher.Timeout).toBe(120);
    for (const key of ['Code', 'Handler', 'Role', 'LoggingConfig', 'MemorySize', 'Runtime', 'Architectures', 'Environment'])
      expect(turns[key]).toEqual(watcher[key]);
  });

  // Lambda refuses an SQS event source whose function's timeout exceeds the queue's visibility timeout.
  for (const delay of [1, 8, 60]) {
    it(`hides a turn's message for the delay, ${delay} s, and times the turns' function out within it`, () => {
      const shape = synthStack({ latency: 'loop', loopDelaySeconds: delay }).template;
      expect(turnsQueue(shape).VisibilityTimeout).toBe(delay);
      expect(turnsFunction(shape).Properties.Timeout).toBeLessThanOrEqual(turnsQueue(shape).VisibilityTimeout);
      const turnSeconds = Number(turnsFunction(shape).Properties.Environment.Variables.LOOP_TURN_SECONDS);
      expect(turnSeconds).toBeGreaterThan(0);
      expect(turnSeconds).toBeLessThan(delay);
    });
  }

  it('tells the function its dead-letter queue, where a failed turn reports itself', () => {
    const deadLetters = Object.entries(template.findResources('AWS::SQS::Queue')).find(([id]) => id.includes('DeadLetters'))![0];
    expect(watcherFunction(template).Properties.Environment.Variables.DEAD_LETTER_QUEUE_URL).toEqual({ Ref: deadLetters });
  });

  it("runs at 256 MB unless memorySize says otherwise, and at 128 MB with V8's young generation kept small (bench table 7)", () => {
    const fn = turnsFunction(template).Properties;
    expect([fn.MemorySize, fn.Environment.Variables.NODE_OPTIONS]).toEqual([256, '--enable-source-maps --max-old-space-size=128']);
    const small = turnsFunction(synthStack({ latency: 'loop', memorySize: 128 }).template).Properties;
    expect([small.MemorySize, small.Environment.Variables.NODE_OPTIONS]).toEqual([128, '--enable-source-maps --max-old-space-size=64 --max-semi-space-size=1']);
  });

  it('lets the function hide its message again and send a new one on the turns queue alone, and nothing more there than the event source needs', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const actionsOf = (s: { Action: string | string[] }) => [s.Action].flat();
    const onTurns = statements.filter((s: { Resource: unknown }) => JSON.stringify(s.Resource).includes('LoopTurns'));
    expect([...new Set(onTurns.flatMap(actionsOf))].sort()).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
    // The visibility change is granted on this queue and no other.
    const changing = statements.filter((s: { Action: string | string[] }) => actionsOf(s).includes('sqs:ChangeMessageVisibility'));
    expect(changing.length).toBeGreaterThan(0);
    for (const s of changing) expect(JSON.stringify(s.Resource)).toMatch(/^\{"Fn::GetAtt":\["WatcherLoopTurns[0-9A-F]+","Arn"\]\}$/);
  });

  it('passes cdk-nag AwsSolutions, the turns queue without a dead-letter queue acknowledged with its reason', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
    const queue = stack.node.findAll().find((c) => c.node.path.endsWith('/Loop/Turns'))!;
    const acknowledged = queue.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).map((m) => m.data as Record<string, string>);
    expect(acknowledged).toEqual([
      { 'Annotation::AwsSolutions-SQS3': expect.stringMatching(/received again every turn.*dead-letter queue.*watchdog restarts/) },
    ]);
  });

  it("alarms on the turns function's errors beside the watcher's when detailed metrics ask for an errors alarm: a turn killed at its timeout reaches no dead-letter queue", () => {
    const detailed = synthStack({ latency: 'loop', loopDelaySeconds: 7, detailedMetrics: true }).template;
    const [turnsId] = stateFunctions(detailed).find(([id]) => id.includes('Turns'))!;
    const onErrors = Object.values(detailed.findResources('AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === 'Errors');
    expect(onErrors.map((a) => a.Properties.Dimensions[0].Value.Ref).sort()).toEqual([turnsId, expect.stringMatching(/^WatcherFunction/)].sort());
    const plain = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === 'Errors');
    expect(plain).toEqual([]);
  });

  it('adds no queue, event source, turns function or recursion to the default (schedule) stack', () => {
    const { template: plain } = synthStack();
    expect(stateFunctions(plain)).toHaveLength(1);
    expect(Object.keys(plain.findResources('AWS::Lambda::EventSourceMapping'))).toHaveLength(0);
    expect(Object.keys(plain.findResources('AWS::SQS::Queue'))).toHaveLength(1);
    expect(watcherFunction(plain).Properties.RecursiveLoop).toBeUndefined();
    expect(watcherFunction(plain).Properties.Environment.Variables.LOOP_QUEUE_URL).toBeUndefined();
  });
});
