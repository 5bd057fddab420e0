// The deadline sweep: at a Bitcoin height, which open deposits and withdrawals have just passed a deadline.
// Each deadline alerts once, at the first height at or past it; when a run jumps past several of a record's
// deadlines at once, only the most severe is told and the others count as told (the lesser is no news then).
import type { Severity } from '../stages/rule-meta';
import type { SbtcDeadlines } from './deadlines';
import { depositEvent, withdrawalEvent, type SbtcLifecycleEvent, type SbtcSituation } from './lifecycle-events';
import type { DepositTrack, SbtcTrackerState, WithdrawalTrack } from './tracker-state';

interface Deadline {
  situation: SbtcSituation;
  /** The marker kept in `sent`: the situation and its level. */
  level: string;
  severity: Severity;
  at: number;
}

/** A deposit's deadlines, most severe first. */
function depositDeadlines(d: DepositTrack, deadlines: SbtcDeadlines): Deadline[] {
  const list: Deadline[] = [];
  if (d.lockTime !== null) {
    list.push({ situation: 'deposit_reclaimable', level: 'reclaim', severity: 'critical', at: d.clockFrom + d.lockTime - deadlines.reclaimBuffer });
  }
  list.push({ situation: 'deposit_late', level: 'critical', severity: 'critical', at: d.clockFrom + deadlines.depositCritical });
  list.push({ situation: 'deposit_late', level: 'warning', severity: 'warning', at: d.clockFrom + deadlines.depositWarning });
  return list;
}

/** A withdrawal's deadlines, most severe first. */
function withdrawalDeadlines(w: WithdrawalTrack, deadlines: SbtcDeadlines): Deadline[] {
  return [
    { situation: 'withdrawal_expired', level: 'expired', severity: 'critical', at: w.requestedAt + deadlines.withdrawalExpiry },
    { situation: 'withdrawal_late', level: 'critical', severity: 'critical', at: w.requestedAt + deadlines.withdrawalCritical },
    { situation: 'withdrawal_late', level: 'warning', severity: 'warning', at: w.requestedAt + deadlines.withdrawalWarning },
  ];
}

/** The deadline to tell now, if any: the most severe one passed and not told; every one passed counts as told. */
function passed(sent: string[], list: Deadline[], height: number): Deadline | null {
  const due = list.filter((d) => height >= d.at && !sent.includes(markOf(d)));
  for (const d of due) sent.push(markOf(d));
  return due[0] ?? null;
}

const markOf = (d: Deadline): string => `${d.situation}:${d.level}`;

export function sweepDeadlines(state: SbtcTrackerState, height: number, deadlines: SbtcDeadlines): SbtcLifecycleEvent[] {
  const events: SbtcLifecycleEvent[] = [];
  for (const d of Object.values(state.deposits)) {
    if (d.minted || d.endedAt !== null || d.sent.includes('deposit_old_key')) continue;
    const due = passed(d.sent, depositDeadlines(d, deadlines), height);
    if (due) events.push(depositEvent(d, due.situation, due.severity, height, { at: due.at, level: due.level }));
  }
  for (const w of Object.values(state.withdrawals)) {
    if (w.accepted || w.rejected) continue;
    const due = passed(w.sent, withdrawalDeadlines(w, deadlines), height);
    if (due) events.push(withdrawalEvent(w, due.situation, due.severity, height, { at: due.at, level: due.level }));
  }
  return events;
}
