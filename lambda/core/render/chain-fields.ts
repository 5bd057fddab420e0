// The bounds on every text an alert takes from the chain, beside its printed value (alert-json.ts): call
// arguments, result reprs, memos, contract and function names, asset ids, addresses, statuses. All of it is
// written by whoever sent a transaction (or given by the API) and the chain does not keep it short: one call
// argument can be 300 KB. Each such text is cut to FIELD_MAX_CHARS with a marker giving its whole length,
// and a list whose JSON passes LIST_MAX_BYTES keeps its leading items (the alert then says `truncated: true`),
// so that every rendering and the alert JSON stay far under SNS's 256 KiB whatever a transaction carries.
import type { Alert } from '../alert-kinds/alert';
import { codePointCount, codePointEnd } from './code-points';
import { formatCount } from './stx-amount';

/** Characters kept of each text from the chain: as many as of a printed value's repr. */
export const FIELD_MAX_CHARS = 16_384;
/** Bytes of JSON a list from the chain (a call's arguments) may take. */
export const LIST_MAX_BYTES = 65_536;
/** A cut text ends with this, then the whole length. */
const CUT_MARKER = '…';

/** Members the watcher writes itself (its config, its keys: a retraction's `retracts` must match the key it voids), and the printed value, bounded on its own. */
const NOT_CHAIN_TEXT = new Set(['type', 'key', 'retracts', 'retracted_type', 'network', 'rule', 'severity', 'value_repr', 'value_hex', 'value']);

/** The text itself, or its first FIELD_MAX_CHARS characters and a marker with its whole length. */
export function cutText(text: string): string {
  // A string no longer in UTF-16 units than the bound has no more characters than it either.
  if (text.length <= FIELD_MAX_CHARS) return text;
  const characters = codePointCount(text);
  if (characters <= FIELD_MAX_CHARS) return text;
  return `${text.slice(0, codePointEnd(text, FIELD_MAX_CHARS))}${CUT_MARKER}[cut: ${formatCount(characters)} characters in all]`;
}

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

interface Walk {
  /** A list lost items: the alert says `truncated: true`. */
  listCut: boolean;
}

function bounded(value: unknown, walk: Walk): unknown {
  if (typeof value === 'string') return cutText(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => bounded(item, walk));
    if (jsonBytes(items) <= LIST_MAX_BYTES) return items.every((item, i) => item === value[i]) ? value : items;
    walk.listCut = true;
    const kept: unknown[] = [];
    let used = 2;
    for (const item of items) {
      used += jsonBytes(item) + (kept.length > 0 ? 1 : 0);
      if (used > LIST_MAX_BYTES) break;
      kept.push(item);
    }
    return kept;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([name, member]) => [cutText(name), bounded(member, walk)] as const);
    const same = entries.every(([name, member]) => name in value && (value as Record<string, unknown>)[name] === member);
    return same ? value : Object.fromEntries(entries);
  }
  return value;
}

/** The alert with every text from the chain within its bound; the alert itself when none is over. */
export function boundChainFields<A extends Alert>(alert: A): A & { truncated?: true } {
  const walk: Walk = { listCut: false };
  let changed = false;
  const members = Object.entries(alert).map(([name, member]) => {
    if (NOT_CHAIN_TEXT.has(name)) return [name, member] as const;
    const next = bounded(member, walk);
    if (next !== member) changed = true;
    return [name, next] as const;
  });
  if (!changed) return alert;
  return { ...(Object.fromEntries(members) as A), ...(walk.listCut ? { truncated: true as const } : {}) };
}
