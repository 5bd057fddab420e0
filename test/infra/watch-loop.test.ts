// The loop mode's resources (docs/latency.md): the turns queue (encrypted, SSL only, a dead-letter queue), the
// function's SQS event source, the function allowed to invoke itself through it, and nothing of it by default.
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { TURN_MAX_RECEIVES } from '../../infra/constructs/watch-loop';
import { onlyResource, synthStack } from './support/synth';

const watcherFunction = (template: ReturnType<typeof synthStack>['template']) =>
  Object.values(template.findResources('AWS::Lambda::Function')).filter((r) => r.Properties.Environment?.Variables?.TABLE_NAME)[0]!;

describe('the loop mode (latency=loop)', () => {
  const { stack, template } = synthStack({ latency: 'loop', loopDelaySeconds: 7 });

  it("queues turns on an encrypted queue whose dead-letter queue is the function's, hidden for the function's timeout", () => {
    const queues = template.findResources('AWS::SQS::Queue', { Properties: { RedrivePolicy: Match.anyValue() } });
    expect(Object.keys(queues)).toHaveLength(1);
    const queue = Object.values(queues)[0]!.Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.VisibilityTimeout).toBe(120);
    expect(queue.ReceiveMessageWaitTimeSeconds).toBe(20);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(TURN_MAX_RECEIVES);
    expect(JSON.stringify(queue.RedrivePolicy.deadLetterTargetArn)).toMatch(/WatcherDeadLetters/);
  });

  it('refuses every request to the turns queue that is not over TLS', () => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    const turnsPolicy = policies.find((p) => JSON.stringify(p.Properties.Queues).includes('LoopTurns'));
    expect(turnsPolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it("makes the queue the function's event source, one turn a batch", () => {
    const { resource } = onlyResource(template, 'AWS::Lambda::EventSourceMapping');
    expect(resource.Properties.BatchSize).toBe(1);
    expect(resource.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 2 });
    expect(JSON.stringify(resource.Properties.EventSourceArn)).toMatch(/LoopTurns/);
  });

  it('allows this function, and only it, to invoke itself through the queue', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const allowed = functions.filter((f) => f.Properties.RecursiveLoop === 'Allow');
    expect(allowed).toEqual([watcherFunction(template)]);
  });

  it('tells the function its queue, delay and turn length, and reserves two runs (a tick beside a turn)', () => {
    const fn = watcherFunction(template).Properties;
    expect(fn.Environment.Variables).toMatchObject({ LOOP_DELAY_SECONDS: '7', LOOP_TURN_SECONDS: '20', LOOP_QUEUE_URL: expect.anything() });
    expect(fn.ReservedConcurrentExecutions).toBe(2);
  });

  it('tells the function its dead-letter queue, where a failed turn reports itself', () => {
    const deadLetters = Object.entries(template.findResources('AWS::SQS::Queue')).find(([id]) => id.includes('DeadLetters'))![0];
    expect(watcherFunction(template).Properties.Environment.Variables.DEAD_LETTER_QUEUE_URL).toEqual({ Ref: deadLetters });
  });

  it("runs at 256 MB unless memorySize says otherwise, and at 128 MB with V8's young generation kept small (bench table 7)", () => {
    const fn = watcherFunction(template).Properties;
    expect([fn.MemorySize, fn.Environment.Variables.NODE_OPTIONS]).toEqual([256, '--enable-source-maps --max-old-space-size=128']);
    const small = watcherFunction(synthStack({ latency: 'loop', memorySize: 128 }).template).Properties;
    expect([small.MemorySize, small.Environment.Variables.NODE_OPTIONS]).toEqual([128, '--enable-source-maps --max-old-space-size=64 --max-semi-space-size=1']);
  });

  it('lets the function send to the turns queue and nothing more on it than the event source needs', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const onTurns = statements.filter((s: { Resource: unknown }) => JSON.stringify(s.Resource).includes('LoopTurns'));
    const actions = onTurns.flatMap((s: { Action: string | string[] }) => [s.Action].flat()).sort();
    expect(actions).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
  });

  it('passes cdk-nag AwsSolutions with nothing new acknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('adds no queue, event source or recursion to the default (schedule) stack', () => {
    const { template: plain } = synthStack();
    expect(Object.keys(plain.findResources('AWS::Lambda::EventSourceMapping'))).toHaveLength(0);
    expect(Object.keys(plain.findResources('AWS::SQS::Queue'))).toHaveLength(1);
    expect(watcherFunction(plain).Properties.RecursiveLoop).toBeUndefined();
    expect(watcherFunction(plain).Properties.Environment.Variables.LOOP_QUEUE_URL).toBeUndefined();
  });
});
