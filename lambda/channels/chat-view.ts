// What every chat channel shows of an alert, once: severity first, the subject, the rule in words, the fields
// that matter (the terminal's, already cleaned of invisible and line-breaking characters: amounts in the
// asset's units, addresses whole), the explorer link, and for a retraction the key of the alert it voids.
// Each channel then escapes and cuts it for its own format.
import type { Alert } from '../core/alert-kinds/alert';
import type { Field } from '../core/alert-kinds/kind';
import { kindOf, ruleOf } from '../core/alert-kinds/registry';
import { renderSubject } from '../core/render';
import { explorerBlockUrl } from '../core/render/chain-text';
import { ruleNameWords } from '../core/render/rule-name';
import type { Severity } from '../core/stages/rule-meta';

export interface ChatView {
  severity: Severity;
  /** `CRITICAL`, `WARNING` or `INFO`: the first word of every chat message. */
  level: string;
  /** The rule that raised it: its name, or its default name in words (render/rule-name.ts). */
  rule: string;
  /** The subject line, without the `[stacks-watch]` prefix. */
  title: string;
  fields: readonly Field[];
  link: string | null;
  /** The key of the alert a retraction voids or a chain health "moving again" closes; null for any other alert. */
  retracts: string | null;
  alert: Alert;
}

/**
 * The alert's own explorer link (its transaction), else its block's: a deep reorg, a cooldown's summary or a
 * balance read name a block and no transaction. The SMS keeps the kind's link alone: it has no room for more.
 */
function explorerLink(alert: Alert): string | null {
  const own = kindOf(alert).link(alert);
  if (own !== null) return own;
  const hash = 'block_hash' in alert ? alert.block_hash : 'cursor_hash' in alert ? alert.cursor_hash : null;
  return typeof hash === 'string' && /^0x[0-9a-fA-F]+$/.test(hash) ? explorerBlockUrl(hash, alert.network) : null;
}

export function chatView(alert: Alert): ChatView {
  const kind = kindOf(alert);
  const { rule, severity } = ruleOf(alert);
  return {
    severity,
    level: severity.toUpperCase(),
    rule: ruleNameWords(rule),
    title: renderSubject(alert).replace(/^\[stacks-watch[^\]]*\]\s*/, ''),
    fields: kind.terminal(alert),
    link: explorerLink(alert),
    retracts: alert.type === 'retraction' ? alert.retracts : alert.type === 'chain_health' ? alert.resolves : null,
    alert,
  };
}

/** Cuts to at most `max` characters, ending with a marker that says it was cut. */
export function cut(text: string, max: number, marker = '… (cut)'): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}
