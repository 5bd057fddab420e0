// PagerDuty Events API v2: `trigger` with the alert's key as `dedup_key`, so a re-delivery never opens a
// second incident; a retraction `resolve`s the incident of the alert it voids. Only rules at or above
// PAGERDUTY_MIN_SEVERITY (default critical) page. The summary is cut at 1,024 characters, each detail at 1,024.
import { compareSeverity, SEVERITIES, type Severity } from '../core/stages/rule-meta';
import { cut, type ChatView } from './chat-view';
import { ChatSettingsError, serviceUrl, type ChatChannel } from './channel';

const EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** PagerDuty refuses an event over 512 KB; 40 details of at most this many characters stay far below it. */
const DETAIL_MAX = 1_024;
const DETAILS_MAX = 40;

/** The rule and the fields, each cut: the incident's details, well inside the event's 512 KB. */
function details(view: ChatView): Record<string, string> {
  const fields = view.fields.slice(0, DETAILS_MAX).map(([label, value]) => [cut(label, 100), cut(value, DETAIL_MAX)]);
  return { rule: cut(view.rule, DETAIL_MAX), ...Object.fromEntries(fields) };
}

function minSeverity(value: string | undefined): Severity {
  if (value === undefined) return 'critical';
  if ((SEVERITIES as readonly string[]).includes(value)) return value as Severity;
  throw new ChatSettingsError(`PAGERDUTY_MIN_SEVERITY must be one of ${SEVERITIES.join(', ')}`);
}

export const pagerDutyChannel = {
  name: 'pagerduty',
  repeatSafe: true,
  variables: ['PAGERDUTY_ROUTING_KEY', 'PAGERDUTY_MIN_SEVERITY', 'PAGERDUTY_EVENTS_URL'],
  fromEnv(env) {
    if (!env.PAGERDUTY_ROUTING_KEY) return null;
    return {
      url: serviceUrl(env.PAGERDUTY_EVENTS_URL ?? EVENTS_URL, 'PAGERDUTY_EVENTS_URL').href,
      routingKey: env.PAGERDUTY_ROUTING_KEY,
      minSeverity: minSeverity(env.PAGERDUTY_MIN_SEVERITY),
    };
  },
  request(view: ChatView, { url, routingKey, minSeverity: floor }) {
    // A retraction resolves what its alert opened; it carries the original's severity, so it passes the same floor.
    if (compareSeverity(view.severity, floor) > 0) return null;
    if (view.retracts !== null) return { url, body: { routing_key: routingKey, event_action: 'resolve', dedup_key: view.retracts } };
    return {
      url,
      body: {
        routing_key: routingKey,
        event_action: 'trigger',
        dedup_key: view.alert.key,
        payload: {
          summary: cut(`${view.level}: ${view.title}`, 1_024),
          source: 'stacks-watch',
          severity: view.severity,
          custom_details: details(view),
        },
        ...(view.link ? { links: [{ href: view.link, text: 'Open in the explorer' }] } : {}),
      },
    };
  },
} satisfies ChatChannel<{ url: string; routingKey: string; minSeverity: Severity }>;
