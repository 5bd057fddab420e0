// `npm start -- history`: what was alerted, from the alert records the state keeps (30 days, see
// docs/running-locally.md), each with its delivery state: sent, parked (SNS will never take it, with the
// reason), retracted (its block was replaced by a reorg), pending (being published, or left by a crash), or
// held by a rule's cooldown or muted by its mute (recorded, never sent); and, under it, its delivery to each
// chat channel (sent, queued, retrying, failed with the reason).
// It reads the state file without taking the lock, so it works while a runner is going; with --table it reads
// the alert records of a DynamoDB state table (the deployed function's, or a --table runner's) instead.
import type { Alert } from '../core/alert-kinds/alert';
import type { AlertRecordState } from '../core/stages/cooldown-mute-state';
import { renderSubject } from '../core/render';
import { StateJournal } from '../adapters/file/state-journal';
import type { StateDocument } from '../adapters/file/state-document';
import type { TableAlertRecord } from '../adapters/dynamodb/alert-history';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ChatDeliveries } from '../adapters/chat/chat-delivery';

export interface HistoryEntry {
  key: string;
  type: string;
  state: AlertRecordState;
  /** When it was sent (or claimed or held, for a record never sent), epoch ms. */
  at: number;
  subject: string;
  reason?: string;
  alert?: unknown;
  /** Its delivery to each chat channel, by channel (the local runner's, kept in the state file). */
  chat?: ChatDeliveries;
}

/** One alert record as either store keeps it. */
export type KeptAlertRecord = Omit<TableAlertRecord, 'network'> & { chat?: ChatDeliveries };

/** A state file's alert records. */
export function fileRecords(doc: Pick<StateDocument, 'alerts' | 'chat'>): KeptAlertRecord[] {
  return Object.entries(doc.alerts).map(([key, record]) => ({
    key,
    state: record.state,
    at: record.sentAt ?? record.claimedAt,
    expiresAtMs: record.expiresAt,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.alert !== undefined ? { alert: record.alert } : {}),
    ...(doc.chat?.[key] !== undefined ? { chat: doc.chat[key] } : {}),
  }));
}

/** The live records (not past their expiry) alerted at or after `sinceMs`, oldest first. */
export function historyEntries(records: readonly KeptAlertRecord[], nowMs: number, sinceMs = 0): HistoryEntry[] {
  return records
    .filter((record) => record.expiresAtMs > nowMs && record.at >= sinceMs)
    .map(({ key, state, at, reason, alert, chat }): HistoryEntry => {
      const kept = alert as Partial<Alert> | undefined;
      return {
        key,
        type: typeof kept?.type === 'string' ? kept.type : key.split(':')[0]!,
        state,
        at,
        subject: subjectOf(kept),
        ...(reason !== undefined ? { reason } : {}),
        ...(alert !== undefined ? { alert } : {}),
        ...(chat !== undefined ? { chat } : {}),
      };
    })
    .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
}

function subjectOf(alert: Partial<Alert> | undefined): string {
  // An operator notice (`ops:` keys) keeps its own subject.
  const notice = alert as { subject?: unknown } | undefined;
  if (!alert?.type && typeof notice?.subject === 'string') return `operator notice: ${notice.subject}`;
  if (!alert?.type) return '(the alert was not kept)';
  try {
    return renderSubject(alert as Alert).replace(/^\[[^\]]*\]\s*/, '');
  } catch {
    return `(a ${alert.type} alert this version cannot word)`;
  }
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Under an alert's line, its delivery to each chat channel: `slack sent · discord failed: HTTP 500`. */
function chatLine(chat: ChatDeliveries | undefined): string {
  if (chat === undefined) return '';
  const parts = Object.entries(chat).map(([channel, d]) => `${channel} ${d.state}${d.reason ? `: ${d.reason}` : ''}`);
  return `\n${' '.repeat(22)}chat: ${parts.join(' · ')}`;
}

/** One JSON object a line with --json; otherwise one line an alert and a count. */
export function formatHistory(entries: readonly HistoryEntry[], json: boolean, sinceMs?: number): string {
  if (json) {
    return entries.map(({ at, ...entry }) => `${JSON.stringify({ alertedAt: stamp(at), ...entry })}\n`).join('');
  }
  const lines = entries.map((e) => `${stamp(e.at)}  ${e.state.padEnd(9)}  ${e.subject}${e.reason ? `  (parked: ${e.reason})` : ''}${chatLine(e.chat)}`);
  const counts = (['sent', 'parked', 'retracted', 'pending'] as const)
    .map((state) => [state, entries.filter((e) => e.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const since = sinceMs === undefined ? 'in the last 30 days' : `since ${stamp(sinceMs)}`;
  const total = entries.length === 1 ? '1 alert' : `${entries.length} alerts`;
  return [...lines, `${total} ${since}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`, ''].join('\n');
}

export interface HistorySource {
  statePath: string;
  /** A DynamoDB state table instead of the state file; `region` checks a region is set before any call. */
  table?: { name: string; client: DynamoDBClient };
}

/** Reads the state file (or table) and prints its history; a missing state file is an empty history. */
export async function printHistory(source: HistorySource, options: { json: boolean; sinceMs?: number; nowMs?: number }): Promise<void> {
  let records: KeptAlertRecord[] = [];
  if (source.table) {
    const { scanAlertRecords } = await import('../adapters/dynamodb/alert-history');
    records = await scanAlertRecords(source.table.client, source.table.name);
  } else {
    const doc = await new StateJournal(source.statePath).read();
    if (doc) records = fileRecords(doc);
    else if (!options.json) process.stderr.write(`no state at ${source.statePath} yet: nothing alerted (or name another with --state FILE)\n`);
  }
  process.stdout.write(formatHistory(historyEntries(records, options.nowMs ?? Date.now(), options.sinceMs), options.json, options.sinceMs));
}
