// Which way a run reads the mempool for the pending rules (docs/pending.md): the whole v3 list, newest first
// until a transaction seen before, or each watched principal's own mempool route, which lists only what waits
// for that principal. Per principal only when every pending rule names its principals (a call rule its
// contract, a transfer rule its `from` and `to`) and that costs fewer requests than the list: one request a
// principal in the common case against the pages the list took a run when last measured. The measure is a
// list read straight after a list read (one after per-principal reads walks back further than a run's worth),
// and it is taken again once it is older than `MEASURE_KEPT_MS`. Pure: the state says what was measured.
import type { MempoolState, MempoolTx } from './mempool-ports';
import { MEMPOOL_LIMITS } from './mempool-limits';
import type { PendingRules } from './pending-rules';

/** A mempool page, the list's or a principal's (the API's transaction limit): the readers ask for it, the plan counts by it. */
export const MEMPOOL_LIST_PAGE = 50;
/** How long the list's measured pages a run stand for it; then the list is read again to measure. */
export const MEASURE_KEPT_MS = 10 * 60_000;

export type MempoolReadWay = 'list' | 'principals';

/** How a run reads the mempool and why: in the run's `cycle done` line (`mempoolRead`). */
export interface MempoolReadPlan {
  way: MempoolReadWay;
  /** The principals the pending rules name (0 when a rule names none). */
  principals: number;
  reason: string;
  /**
   * Requests a run, each way, as the choice weighed them: a request a principal (null when a rule names none), and
   * the pages the list took a run as last measured (null while there is no measure that stands).
   */
  estimate: { principals: number | null; list: number | null };
}

/** The principals the pending rules name, in config order; null when a rule names none (it needs the whole list). */
export function pendingPrincipals(rules: PendingRules): string[] | null {
  const principals = new Set<string>(rules.calls.keys());
  for (const list of rules.transfers.values()) {
    for (const rule of list) {
      if (rule.to.size === 0 && rule.from.size === 0) return null;
      for (const principal of [...rule.from, ...rule.to]) principals.add(principal);
    }
  }
  return [...principals];
}

/**
 * The list's pages for a list read that gave `count` calls and transfers: 50 a page, the last one holding where it
 * stopped. Exact with the list's `type` filter (API 9.8.0); an older API's other types are not counted, which
 * only errs towards the list.
 */
export function listPagesFor(count: number): number {
  return Math.min(MEMPOOL_LIMITS.maxPages, Math.floor(count / MEMPOOL_LIST_PAGE) + 1);
}

/** The way this run reads, for `principals` (pendingPrincipals) and what the state measured. */
export function chooseMempoolRead(principals: readonly string[] | null, state: MempoolState, nowMs: number): MempoolReadPlan {
  const measure = state.read?.listPages;
  const stands = measure !== undefined && nowMs - measure.at <= MEASURE_KEPT_MS;
  const estimate = { principals: principals?.length ?? null, list: stands ? measure.pages : null };
  if (principals === null) return { way: 'list', principals: 0, reason: 'a pending rule names no principal', estimate };
  const count = principals.length;
  if (!stands) return { way: 'list', principals: count, reason: 'measuring what the list costs a run', estimate };
  const pages = `${measure.pages} ${measure.pages === 1 ? 'page' : 'pages'}`;
  const routes = `${count} principal ${count === 1 ? 'route' : 'routes'}`;
  if (count < measure.pages) return { way: 'principals', principals: count, reason: `${routes} cost less than the ${pages} the list took a run`, estimate };
  return { way: 'list', principals: count, reason: `${routes} cost no less than the ${pages} the list took a run`, estimate };
}

/**
 * The fewest pages the list may take a run, as measured, from which a run reads these principals' own routes;
 * null when it never takes that many (it reads at most `MEMPOOL_LIMITS.maxPages`). Asked of chooseMempoolRead
 * itself, so what `--check` says cannot drift from what a run chooses.
 */
export function listPagesForPrincipals(principals: readonly string[] | null): number | null {
  for (let pages = 1; pages <= MEMPOOL_LIMITS.maxPages; pages++) {
    const measured: MempoolState = { seen: [], tracked: [], read: { way: 'list', listPages: { pages, at: 0 } } };
    if (chooseMempoolRead(principals, measured, 0).way === 'principals') return pages;
  }
  return null;
}

/**
 * What the state keeps of a read that answered: its way, and the list's pages a run when this read measured them.
 * A measure that stands (the same pages, not yet old) is kept as it was, so a quiet chain's record is not
 * rewritten every run for its time alone: at most once every `MEASURE_KEPT_MS`.
 */
export function afterRead(before: MempoolState['read'], way: MempoolReadWay, listed: readonly MempoolTx[], nowMs: number): NonNullable<MempoolState['read']> {
  const kept = before?.listPages;
  if (way === 'list' && before?.way === 'list') {
    const pages = listPagesFor(listed.length);
    return { way, listPages: kept && kept.pages === pages && nowMs - kept.at <= MEASURE_KEPT_MS ? kept : { pages, at: nowMs } };
  }
  return { way, ...(kept ? { listPages: kept } : {}) };
}
