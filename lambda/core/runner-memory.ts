// What a runner keeps across its cycles so that each run starts from what the process already learned: the day's
// API deprecation notices seen sent, the per-subject routes found missing and how busy its runs found the watched
// subjects and the blocks. The handler keeps one per warm container, the local runner one per process, a
// benchmark one per simulated process; each cycle gets it in its budget. Something new a process should remember
// across its runs is one more member here, and every runner keeps it.
import type { CycleBudget } from './cycle-types';
import { ObservedActivity } from './follow/observed-activity';
import { MissingFeedRoutes } from './follow/subject-fallback';

export type RunnerMemory = Required<Pick<CycleBudget, 'deprecationsNoticed' | 'missingFeedRoutes' | 'observedActivity'>>;

export function runnerMemory(): RunnerMemory {
  return { deprecationsNoticed: new Set(), missingFeedRoutes: new MissingFeedRoutes(), observedActivity: new ObservedActivity() };
}
