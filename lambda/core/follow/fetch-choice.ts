// The run's choice between the block scan and the per-subject source (fetch-plan.ts), said in the run's log:
// `auto` (the runners' default) follows the plan, `per-subject` reads per subject whenever the rules allow it,
// and `block-scan`, or a caller that names no way, keeps the block scan. Reading per subject needs an adapter with the feeds (ChainApi.subjects).
import type { WatchRules } from '../rules/rule-lists';
import { chooseFetchPlan } from './fetch-plan';
import type { ChainApi, Telemetry } from '../ports';
import type { ChainTip } from '../domain';
import { SubjectSource } from './subject-source';
import type { MissingFeedRoutes } from './subject-fallback';
import type { ObservedActivity, RunActivity } from './observed-activity';

export type FetchWay = 'auto' | 'per-subject' | 'block-scan';

/**
 * How far below the tip the header chain reaches (20 list pages of 30: lambda/hiro/subject-feeds.ts): a run
 * further behind keeps the block scan until it has caught up to within it.
 */
export const HEADER_CHAIN_REACH = 600;

/**
 * The run's tip: a run that may read per subject takes it from the header chain's newest page, which its
 * header chain read then reuses (one request for both); the block scan, or an API without that route, asks
 * the tip route as before. `missing`: what the process found the API lacks, so that a run that will keep the
 * block scan for it (chooseRunSource) does not ask the missing route again for its tip.
 */
export async function readRunTip(chain: ChainApi, way: FetchWay | undefined, missing?: { routes: MissingFeedRoutes; now: number }): Promise<ChainTip | null> {
  const gone = missing ? missing.routes.gone(missing.now, chain.subjects?.api) : null;
  if (way && way !== 'block-scan' && chain.subjects?.tip && !gone) {
    const tip = await chain.subjects.tip();
    if (tip !== undefined) return tip;
  }
  return chain.getTip();
}

/** How a run read the chain and why: in the run's log line (`cycle done`) and its summary. */
export interface RunPlan {
  way: 'per-subject' | 'block-scan';
  /** The way the run was asked for. */
  asked: FetchWay;
  reason: string;
  /** Estimated requests for the run's blocks, each way (per subject null when a rule rules it out); absent when no plan was made. */
  estimate?: { perSubject: number | null; blockScan: number };
}

/**
 * The run's source (a SubjectSource, or null for the block scan) and its plan (null when the run was not asked
 * to choose: the block scan, said nowhere). `behind`: blocks from the next to scan up to the tip; `missing`: the
 * run's clock and what the process found missing, to keep the block scan while such a route is not due to be asked again;
 * `activity`: what the process's earlier runs saw, which the plan estimates with, and where this run's source notes what it sees.
 */
export function chooseRunSource(
  way: FetchWay | undefined,
  chain: ChainApi,
  rules: WatchRules,
  blocks: number,
  telemetry: Telemetry,
  behind = blocks,
  missing?: { routes: MissingFeedRoutes; now: number },
  activity?: { observed: ObservedActivity; run: RunActivity; now: number },
): { source: SubjectSource | null; plan: RunPlan | null } {
  const feeds = chain.subjects;
  if (!way || way === 'block-scan' || !feeds || blocks <= 0) return { source: null, plan: null };
  const gone = missing ? missing.routes.gone(missing.now, feeds.api) : null;
  if (gone) {
    const reason = `the API has no ${gone.route} (it answered 404), so the block scan reads until the route is asked again at ${new Date(gone.probeAt).toISOString()}`;
    telemetry.log('info', `fetch plan: the block scan: ${reason}`, { way, reason });
    return { source: null, plan: { way: 'block-scan', asked: way, reason } };
  }
  if (behind > HEADER_CHAIN_REACH) {
    const reason = `${behind} blocks behind the tip, more than the header chain's reach of ${HEADER_CHAIN_REACH}`;
    telemetry.log('info', 'fetch plan: the block scan', { way, reason });
    return { source: null, plan: { way: 'block-scan', asked: way, reason } };
  }
  const plan = chooseFetchPlan({
    rules,
    blocks,
    walk: behind,
    budget: Number.POSITIVE_INFINITY,
    retired: feeds.eventsRetired?.() ?? false,
    ...(activity ? { observed: activity.observed.paceAt(activity.now) } : {}),
  });
  const perSubject = plan.estimate.perSubject !== null && (way === 'per-subject' || plan.way === 'per-subject');
  // At debug: the run's `cycle done` line carries the plan, and a quiet turn of the loop says nothing at info.
  telemetry.log('debug', `fetch plan: ${perSubject ? 'per subject' : 'the block scan'}`, { way, reason: plan.reason, ...plan.estimate });
  return {
    source: perSubject ? new SubjectSource(feeds, chain, { rules }, plan.subjects, activity?.run) : null,
    plan: { way: perSubject ? 'per-subject' : 'block-scan', asked: way, reason: plan.reason, estimate: plan.estimate },
  };
}

/**
 * The plan as the run ended: a run that chose per subject and met a route the API lacks (a 404: the route is
 * now remembered missing) read on by the block scan from the block it was at, and its log line says so.
 */
export function planAsRun(plan: RunPlan | null, chain: ChainApi, routes: MissingFeedRoutes, now: number): RunPlan | null {
  const gone = plan?.way === 'per-subject' ? routes.gone(now, chain.subjects?.api) : null;
  if (!plan || !gone) return plan;
  const { estimate: _estimate, ...rest } = plan;
  return { ...rest, way: 'block-scan', reason: `the API answered 404 to ${gone.route}, so the run read by the block scan from the block it was at` };
}
