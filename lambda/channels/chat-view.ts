// What every chat channel shows of an alert, once: severity first, the subject, the fields that matter (the
// terminal's, already cleaned of invisible and line-breaking characters), the explorer link, and for a
// retraction the key of the alert it voids. Each channel then escapes and cuts it for its own format.
import type { Alert } from '../core/alert-kinds/alert';
import type { Field } from '../core/alert-kinds/kind';
import { kindOf, ruleOf } from '../core/alert-kinds/registry';
import { renderSubject } from '../core/render';
import type { Severity } from '../core/rule-meta';

export interface ChatView {
  severity: Severity;
  /** `CRITICAL`, `WARNING` or `INFO`: the first word of every chat message. */
  level: string;
  /** The rule that raised it (its name, or its default name). */
  rule: string;
  /** The subject line, without the `[stacks-watch]` prefix. */
  title: string;
  fields: readonly Field[];
  link: string | null;
  /** The key of the alert a retraction voids; null for any other alert. */
  retracts: string | null;
  alert: Alert;
}

export function chatView(alert: Alert): ChatView {
  const kind = kindOf(alert);
  const { rule, severity } = ruleOf(alert);
  return {
    severity,
    level: severity.toUpperCase(),
    rule,
    title: renderSubject(alert).replace(/^\[stacks-watch\]\s*/, ''),
    fields: kind.terminal(alert),
    link: kind.link(alert),
    retracts: alert.type === 'retraction' ? alert.retracts : null,
    alert,
  };
}

/** Cuts to at most `max` characters, ending with a marker that says it was cut. */
export function cut(text: string, max: number, marker = '… (cut)'): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}
