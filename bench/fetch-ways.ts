// Which way a benchmark's runs read the chain. A table that describes the watcher as a user runs it asks for the
// runners' default (FETCH_WAY unset: the fetch plan's choice, lambda/core/follow/fetch-choice.ts); a table that
// compares ways names each. Either way the runs' summaries say what each run took, and the table shows it, so a
// reader sees whether a row measured the block scan, reading per subject, or both in turn.
import type { CycleSummary } from '../lambda/core/cycle-types';
import type { FetchWay } from '../lambda/core/follow/fetch-choice';
import { readFetchWay } from '../lambda/runtime/api-env';

/** The way the Lambda and the local runner read the chain when FETCH_WAY (deploy.json's `fetchWay`) is unset. */
export const DEFAULT_FETCH_WAY: FetchWay = readFetchWay({});

/** What a row's runs were asked for and what they took: runs that read blocks, counted by the way they read them. */
export interface WaysTaken {
  asked: FetchWay;
  perSubject: number;
  blockScan: number;
}

const WAY_NAMES: Record<FetchWay, string> = { auto: 'auto', 'per-subject': 'per subject', 'block-scan': 'block scan' };

export function waysAsked(asked: FetchWay): WaysTaken {
  return { asked, perSubject: 0, blockScan: 0 };
}

/**
 * Counts a run by the way it read (its plan as it ended: a run that fell back to the block scan counts there).
 * A run with no plan was asked for the block scan if it scanned a block, and read no block otherwise (nothing
 * new: it is not counted). A run asked otherwise than the tally says throws: a table would claim a way it did not measure.
 */
export function countWay(tally: WaysTaken, summary: Pick<CycleSummary, 'fetchPlan' | 'blocksScanned'>): void {
  const plan = summary.fetchPlan;
  if (!plan && summary.blocksScanned === 0) return;
  const asked = plan?.asked ?? 'block-scan';
  if (asked !== tally.asked) throw new Error(`a run counted as asked for ${WAY_NAMES[tally.asked]} was asked for ${WAY_NAMES[asked]}`);
  if ((plan?.way ?? 'block-scan') === 'per-subject') tally.perSubject += 1;
  else tally.blockScan += 1;
}

const runs = (count: number) => `${count} run${count === 1 ? '' : 's'}`;

/**
 * A table's "read" cell: the way asked, and what the runs took, e.g. `auto → per subject (5 runs)`, `auto → block
 * scan 90 runs, per subject 60 runs`, `block scan (150 runs)`.
 */
export function waysCell(tally: WaysTaken): string {
  const taken: [string, number][] = (
    [
      ['block scan', tally.blockScan],
      ['per subject', tally.perSubject],
    ] as [string, number][]
  ).filter(([, count]) => count > 0);
  const asked = WAY_NAMES[tally.asked];
  if (taken.length === 0) return `${asked} (no run read a block)`;
  if (taken.length === 1 && taken[0]![0] === asked) return `${asked} (${runs(taken[0]![1])})`;
  if (taken.length === 1) return `${asked} → ${taken[0]![0]} (${runs(taken[0]![1])})`;
  return `${asked} → ${taken.map(([way, count]) => `${way} ${runs(count)}`).join(', ')}`;
}

/** The sentence the tables' prose gives the "read" column. */
export const READ_COLUMN_NOTE =
  "Read: the way the runs were asked to read the chain (auto, the fetch plan's choice, is what the watcher does when `fetchWay` / FETCH_WAY is unset) and the way each run took, by its own summary (runs that found no new block are not counted).";
