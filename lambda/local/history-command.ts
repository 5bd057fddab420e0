// `npm start -- history`: what was alerted, from the alert records the state keeps (30 days, see
// docs/running-locally.md), each with its delivery state: sent, parked (SNS will never take it, with the
// reason), retracted (its block was replaced by a reorg), or pending (being published, or left by a crash).
// It reads the state file without taking the lock, so it works while a runner is going.
import type { Alert } from '../core/alert-kinds/alert';
import { renderSubject } from '../core/render';
import { StateJournal } from '../adapters/file/state-journal';
import type { StateDocument } from '../adapters/file/state-document';

export interface HistoryEntry {
  key: string;
  type: string;
  state: 'pending' | 'sent' | 'retracted' | 'parked';
  /** When it was sent (or claimed, for a record never sent), epoch ms. */
  at: number;
  subject: string;
  reason?: string;
  alert?: unknown;
}

/** The live records (not past their expiry) alerted at or after `sinceMs`, oldest first. */
export function historyEntries(doc: Pick<StateDocument, 'alerts'>, nowMs: number, sinceMs = 0): HistoryEntry[] {
  return Object.entries(doc.alerts)
    .filter(([, record]) => record.expiresAt > nowMs)
    .map(([key, record]): HistoryEntry => {
      const alert = record.alert as Partial<Alert> | undefined;
      return {
        key,
        type: typeof alert?.type === 'string' ? alert.type : key.split(':')[0]!,
        state: record.state,
        at: record.sentAt ?? record.claimedAt,
        subject: subjectOf(alert),
        ...(record.reason !== undefined ? { reason: record.reason } : {}),
        ...(record.alert !== undefined ? { alert: record.alert } : {}),
      };
    })
    .filter((entry) => entry.at >= sinceMs)
    .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
}

function subjectOf(alert: Partial<Alert> | undefined): string {
  if (!alert?.type) return '(the alert was not kept)';
  try {
    return renderSubject(alert as Alert).replace(/^\[[^\]]*\]\s*/, '');
  } catch {
    return `(a ${alert.type} alert this version cannot word)`;
  }
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One JSON object a line with --json; otherwise one line an alert and a count. */
export function formatHistory(entries: readonly HistoryEntry[], json: boolean, sinceMs?: number): string {
  if (json) {
    return entries.map(({ at, ...entry }) => `${JSON.stringify({ alertedAt: stamp(at), ...entry })}\n`).join('');
  }
  const lines = entries.map((e) => `${stamp(e.at)}  ${e.state.padEnd(9)}  ${e.subject}${e.reason ? `  (parked: ${e.reason})` : ''}`);
  const counts = (['sent', 'parked', 'retracted', 'pending'] as const)
    .map((state) => [state, entries.filter((e) => e.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const since = sinceMs === undefined ? 'in the last 30 days' : `since ${stamp(sinceMs)}`;
  const total = entries.length === 1 ? '1 alert' : `${entries.length} alerts`;
  return [...lines, `${total} ${since}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`, ''].join('\n');
}

/** Reads `statePath` and prints its history; a missing state file is an empty history. */
export async function printHistory(statePath: string, options: { json: boolean; sinceMs?: number; nowMs?: number }): Promise<void> {
  const doc = await new StateJournal(statePath).read();
  const entries = doc ? historyEntries(doc, options.nowMs ?? Date.now(), options.sinceMs) : [];
  if (!doc && !options.json) process.stderr.write(`no state at ${statePath} yet: nothing alerted (or name another with --state FILE)\n`);
  process.stdout.write(formatHistory(entries, options.json, options.sinceMs));
}
