// The self-rescheduling loop's queue (docs/latency.md): each turn of the watcher sends the next one here with
// a delay of a few seconds, and the queue is the function's event source. Lambda stops a function that keeps
// invoking itself through a queue after about 16 rounds unless told otherwise, so this function (and only it)
// allows recursive loops; the loop's token in the state table keeps exactly one loop alive.
import { Duration } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface WatchLoopProps {
  /** Where a turn message goes when its turn fails to start three times (the function's own DLQ). */
  deadLetterQueue: IQueue;
  /** The function's timeout: a message is hidden at least that long while its turn runs. */
  functionTimeout: Duration;
}

/** Delivery attempts of one turn message before it goes to the dead-letter queue. */
export const TURN_MAX_RECEIVES = 3;

export class WatchLoop extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: WatchLoopProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Turns', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda requires at least the function's timeout; a retried turn is stale by then anyway.
      visibilityTimeout: props.functionTimeout,
      // A turn not taken within a few minutes belongs to a loop the schedule has replaced.
      retentionPeriod: Duration.minutes(5),
      receiveMessageWaitTime: Duration.seconds(20),
      deadLetterQueue: { queue: props.deadLetterQueue, maxReceiveCount: TURN_MAX_RECEIVES },
    });
  }

  /** Makes the queue the function's event source and lets the function send its next turn. */
  attach(fn: IFunction, role: IRole): void {
    // One turn at a time; 2 is the least concurrency an SQS event source takes (the lease keeps one cycle).
    fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, maxConcurrency: 2 }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
  }
}
