// A deploy never unsubscribes anyone by accident. CloudFormation deletes every subscription a new template no
// longer lists, so a `-c alertEmails=…` given for one deploy (or a list typed shorter than the settings file's)
// would silently stop alerts to everyone it leaves out. The synth refuses that, naming who would be dropped,
// unless `-c allowFewerSubscribers=true` says it is meant.
import type { AlertSubscription } from './alert-subscriptions';
import type { ChatSubscription } from './chat-settings';
import { shownEndpoint } from './endpoint-names';

/** The settings that subscribe someone to a topic: alert subscribers, the operations list and chat channels. */
export const SUBSCRIBER_KEYS = ['alertEmails', 'alertPhoneNumbers', 'alertWebhooks', 'alertSubscriptions', 'opsEmails', 'chat'];

export interface Subscribers {
  alertSubscriptions: readonly AlertSubscription[];
  opsEmails: readonly string[];
  chat: readonly ChatSubscription[];
}

/** Each subscriber as SNS keys it (one subscription per endpoint and topic), with how to name it. */
function subscriberLabels({ alertSubscriptions, opsEmails, chat }: Subscribers): Map<string, string> {
  const labels = new Map<string, string>();
  for (const { protocol, endpoint } of alertSubscriptions) {
    labels.set(`alerts:${protocol}:${protocol === 'email' ? endpoint.toLowerCase() : endpoint}`, `${shownEndpoint(protocol, endpoint)} (${protocol})`);
  }
  for (const address of opsEmails) labels.set(`ops:email:${address.toLowerCase()}`, `${address} (operations email)`);
  for (const { channel, parameterName } of chat) labels.set(`chat:${channel}:${parameterName}`, `${channel} ${parameterName} (chat)`);
  return labels;
}

/**
 * What is wrong when `deploy` subscribes fewer of the settings file's subscribers than `file` does: each one
 * it would drop, and the `-c` keys (`overridden`) that replaced the file's lists. Undefined when none is lost.
 */
export function droppedSubscribersProblem(file: Subscribers, deploy: Subscribers, source: string, overridden: readonly string[]): string | undefined {
  const kept = subscriberLabels(deploy);
  const dropped = [...subscriberLabels(file)].filter(([key]) => !kept.has(key)).map(([, label]) => label);
  if (dropped.length === 0) return undefined;
  const fileCount = subscriberLabels(file).size;
  const because = overridden.length > 0 ? `-c ${overridden.join(', -c ')} replaces ${source}'s list for this deploy` : 'the settings leave them out';
  return (
    `this deploy would unsubscribe ${dropped.length} of the ${fileCount} subscribers ${source} lists (${dropped.join(', ')}): ` +
    `${because}, and CloudFormation deletes every subscription the template no longer has. ` +
    `Change ${source} instead (it is read on every deploy), include them in the -c value, ` +
    'or pass -c allowFewerSubscribers=true to remove them on purpose'
  );
}

/**
 * The other way round: a `-c` list that subscribes someone `file` does not list. This deploy subscribes them,
 * and the next one without that `-c` (a plain `npx cdk deploy`) unsubscribes them again, unasked. Said as a
 * synth warning rather than refused, so that a one-deploy trial subscriber stays possible.
 */
export function addedSubscribersWarning(file: Subscribers, deploy: Subscribers, source: string, overridden: readonly string[]): string | undefined {
  const listed = subscriberLabels(file);
  const added = [...subscriberLabels(deploy)].filter(([key]) => !listed.has(key)).map(([, label]) => label);
  if (added.length === 0 || overridden.length === 0) return undefined;
  return (
    `-c ${overridden.join(', -c ')} subscribes ${added.length} that ${source} does not list (${added.join(', ')}): ` +
    `the next deploy without that -c unsubscribes them; write them in ${source} to keep them`
  );
}
