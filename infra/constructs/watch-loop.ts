// The self-rescheduling loop's queue (docs/latency.md): it holds one message, the loop's, which each turn reports as
// a batch item failure, so that the event source leaves it in the queue; the queue's visibility timeout is the
// loop's delay, so the message shows again that long after its receive and the next turn begins: an ordinary
// turn's one request is the receive. A turn that wants another delay (0 behind the tip, the rate limit's reset)
// changes the message's visibility. Lambda refuses an SQS event source whose function's timeout exceeds the
// queue's visibility timeout, so the turns run in a function timing out at the delay (watcher-function.ts).
// Lambda stops a function that keeps invoking itself through a queue after about 16 rounds unless told
// otherwise, so that function (and only it) allows recursive loops; the loop's token in the state table keeps
// exactly one loop alive.
import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface WatchLoopProps {
  /** The loop's delay (`loopDelaySeconds`): the queue's visibility timeout, and the most the turns' function may time out at. */
  delaySeconds: number;
}

/** SQS's longest retention: the loop's message is replaced by a fresh one a day before (loop-invocation.ts). */
export const TURN_MESSAGE_RETENTION = Duration.days(14);

export class WatchLoop extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: WatchLoopProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Turns', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The loop's delay: a turn's message shows again this long after its receive, unless the turn set another
      // delay. Lambda requires at least the turns' function's timeout, which is this, so a turn is over (or timed
      // out) by the time its message shows again.
      visibilityTimeout: Duration.seconds(props.delaySeconds),
      retentionPeriod: TURN_MESSAGE_RETENTION,
      // The longest long poll: the idle pollers' empty receives are the queue's requests beside the turns'.
      receiveMessageWaitTime: Duration.seconds(20),
      // No redrive policy: every turn is one more receive of the same message, so a receive count would send
      // the live loop to the dead-letter queue after N turns.
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "The loop's one message is received again every turn (its visibility recycled), so a redrive policy would move the live loop to a dead-letter queue; " +
        "a failed turn reports itself to the function's dead-letter queue (alarmed), and the schedule's watchdog restarts a loop whose message stopped.",
    });
  }

  /** Makes the queue the turns function's event source and lets the role change its message's visibility, or send a new one. */
  attach(fn: IFunction, role: IRole): void {
    fn.addEventSource(
      new SqsEventSource(this.queue, {
        // One message a turn: a larger batch changes nothing (the queue holds one message) and no batching window,
        // which would only delay the turn. 2 is the least concurrency an SQS event source takes (the lease keeps
        // one cycle); the idle pollers' empty long polls are billed per poller.
        batchSize: 1,
        maxConcurrency: 2,
        // The turn reports its own message failed to keep it in the queue; with this on, Lambda does not scale
        // its polling down for those failures (the Lambda developer guide, SQS error handling).
        reportBatchItemFailures: true,
      }),
    );
    // SendMessage: a new loop's message (the watchdog's restart) and the fresh one that replaces an old message.
    // ChangeMessageVisibility: a turn that wants another delay than the queue's (the event source grants it too, on this queue).
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['sqs:SendMessage', 'sqs:ChangeMessageVisibility'], resources: [this.queue.queueArn] }));
  }
}
