// EventBridge Scheduler runs the watcher every few minutes. A missed tick is not retried: the next one
// scans whatever the missed one would have.
import type { Duration } from 'aws-cdk-lib';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type IScheduleTarget, Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { ScheduleTargetBase } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Invokes the function's unqualified ARN. The stock LambdaInvoke target grants lambda:InvokeFunction on
 * `ARN:*` as well (every version and alias), which the schedule never calls.
 */
class UnqualifiedLambdaInvoke extends ScheduleTargetBase implements IScheduleTarget {
  constructor(
    private readonly fn: IFunction,
    props: ConstructorParameters<typeof ScheduleTargetBase>[0],
  ) {
    super(props, fn.functionArn);
  }

  protected addTargetActionToRole(role: IRole): void {
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.fn.functionArn] }));
  }
}

export interface WatchScheduleProps {
  fn: IFunction;
  interval: Duration;
  /** How old an undelivered tick may get; at least a minute. */
  maxEventAge: Duration;
  /** Where a tick goes when Scheduler cannot invoke the function. */
  deadLetterQueue: IQueue;
}

export class WatchSchedule extends Construct {
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: WatchScheduleProps) {
    super(scope, id);
    this.schedule = new Schedule(this, 'Schedule', {
      description: 'Runs one stacks-watch cycle',
      schedule: ScheduleExpression.rate(props.interval),
      target: new UnqualifiedLambdaInvoke(props.fn, {
        retryAttempts: 0,
        maxEventAge: props.maxEventAge,
        deadLetterQueue: props.deadLetterQueue,
      }),
    });
  }
}
