// Email and SMS subscriptions to a topic, each with its optional filter policy. The L1 resource is used
// because the L2 filter policy cannot express the $or that joins contracts and addresses.
import { CfnSubscription, type ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { alertFilterPolicy } from '../alert-filter-policy';
import type { AlertSubscription } from '../settings/alert-subscriptions';

export interface TopicSubscriptionsProps {
  topic: ITopic;
  subscriptions: readonly AlertSubscription[];
}

export class TopicSubscriptions extends Construct {
  constructor(scope: Construct, id: string, props: TopicSubscriptionsProps) {
    super(scope, id);
    for (const { protocol, endpoint, filter } of props.subscriptions) {
      const filterPolicy = alertFilterPolicy(filter);
      // Named by endpoint, so that reordering the list does not replace (and unconfirm) a subscription.
      new CfnSubscription(this, `${protocol}:${endpoint.replaceAll('/', '_')}`, {
        topicArn: props.topic.topicArn,
        protocol,
        endpoint,
        ...(filterPolicy ? { filterPolicy, filterPolicyScope: 'MessageAttributes' } : {}),
      });
    }
  }
}
