// Email, SMS and HTTPS (webhook) subscriptions to a topic, each with its optional filter policy. The L1
// resource is used because the L2 filter policy cannot express the $or that joins contracts and addresses.
// On the alerts topic every subscription's policy also routes SMS (routedFilterPolicy): texts within the run's
// budget and the digest to phones, every alert but the digest to the others.
import { CfnSubscription, type ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { alertFilterPolicy, routedFilterPolicy } from '../alert-filter-policy';
import type { AlertSubscription } from '../settings/alert-subscriptions';
import { webhookId } from '../settings/endpoint-names';

export interface TopicSubscriptionsProps {
  topic: ITopic;
  subscriptions: readonly AlertSubscription[];
  /** The alerts topic: its messages carry the `sms` routing attribute. */
  routeSms?: boolean;
}

export class TopicSubscriptions extends Construct {
  constructor(scope: Construct, id: string, props: TopicSubscriptionsProps) {
    super(scope, id);
    for (const { protocol, endpoint, filter, envelope } of props.subscriptions) {
      const filterPolicy = props.routeSms ? routedFilterPolicy(filter, protocol) : alertFilterPolicy(filter);
      // Named by endpoint, so that reordering the list does not replace (and unconfirm) a subscription; a
      // webhook by a hash of its URL, which may hold its secret (endpoint-names.ts).
      const id = protocol === 'https' ? webhookId(endpoint) : `${protocol}:${endpoint.replaceAll('/', '_')}`;
      new CfnSubscription(this, id, {
        topicArn: props.topic.topicArn,
        protocol,
        endpoint,
        ...(filterPolicy ? { filterPolicy, filterPolicyScope: 'MessageAttributes' } : {}),
        // A webhook gets the alert JSON as its body; the signed SNS envelope only when asked for.
        ...(protocol === 'https' ? { rawMessageDelivery: !envelope } : {}),
      });
    }
  }
}
