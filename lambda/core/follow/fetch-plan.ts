// How a run reads the chain, derived from the rules: per subject (each watched contract's logs, each tracked
// principal's transactions, events only for the transactions those feeds name) or the block scan (every
// block's transactions, events for every one that may carry a watched event), whichever costs fewer requests
// for the blocks to cover. A rule bound to no subject (a transfers rule naming no address on either side)
// can only be matched by reading every block: it keeps the block scan. Pure: the caller passes the pace.
import type { WatchRules } from '../rules/rule-lists';
import { stageEventWants } from '../stages/stage-events';
import type { Subjects } from './subject-source';

/** What a block holds on average, for the estimates: the benchmarks' mainnet-like chain (docs/benchmarks.md). */
export interface ChainPace {
  transactionsPerBlock: number;
  /** Transactions a block that may carry an event a rule watches (successful calls and deploys with events). */
  eventTransactionsPerBlock: number;
  /** Transactions a block that a subject's feed names (its hits), per subject. */
  hitsPerSubjectBlock: number;
  /** Of a principal's hits, the share whose row shows a watched asset moving beyond its fee: their events are read. */
  movedShare: number;
}

export const MAINNET_PACE: ChainPace = { transactionsPerBlock: 26.7, eventTransactionsPerBlock: 15, hitsPerSubjectBlock: 0.05, movedShare: 0.15 };

/** Page sizes of the routes the estimates count. */
const BLOCK_PAGE = 50;
const EVENTS_BATCH = 100;
const HEADER_PAGE = 30;
const BATCH_IDS = 50;

export interface FetchPlanInput {
  rules: WatchRules;
  /** Blocks this run has to cover. */
  blocks: number;
  /** Requests the run may still make. */
  budget: number;
  /** True once the deprecated routes answer 410 (events then cost one request per transaction). */
  retired: boolean;
  pace?: ChainPace;
}

export interface FetchPlan {
  way: 'per-subject' | 'block-scan';
  subjects: Subjects;
  /** Estimated requests for the blocks to cover, each way; per subject is null when a rule rules it out. */
  estimate: { perSubject: number | null; blockScan: number };
  /** Why, in words for `--check` and the run's log line. */
  reason: string;
}

/** The subjects the rules watch, and the rules no subject covers (by name). */
export function subjectsOf(rules: WatchRules): Subjects & { unbound: string[] } {
  const contracts = [...rules.contractLogs.keys()];
  const principals = new Set<string>(rules.addresses.principals);
  const unbound: string[] = [];
  for (const transferRules of rules.transfers.values()) {
    for (const rule of transferRules) {
      if (rule.to.size === 0 && rule.from.size === 0) unbound.push(rule.meta.rule);
      for (const principal of [...rule.to, ...rule.from]) principals.add(principal);
    }
  }
  // A call to a contract is among the contract's own transactions.
  for (const contractId of rules.calls.keys()) principals.add(contractId);
  for (const rule of rules.balances.rules) principals.add(rule.address);
  // The sBTC lifecycle's own addresses: their feeds carry the mint beside each deposit's print (a logs feed gives the print alone).
  for (const principal of [...(rules.sbtcLifecycle?.recipients ?? []), ...(rules.sbtcLifecycle?.senders ?? [])]) principals.add(principal);
  return { contracts, principals: [...principals], unbound };
}

function needsEvents(rules: WatchRules): boolean {
  // What the stages read (a balance moves with any call's events) they say themselves (stages/stage-events.ts).
  return rules.contractLogs.size > 0 || rules.addresses.principals.size > 0 || rules.transfers.size > 0 || stageEventWants(rules).length > 0;
}

/**
 * The block scan: each block's transaction pages, its events (batched while /tx/multiple answers, one a
 * transaction once it is gone), and the tip (from the v3 block list with the headers once the v2 routes are gone).
 */
export function blockScanCost(blocks: number, rules: WatchRules, retired: boolean, pace: ChainPace = MAINNET_PACE): number {
  const pages = Math.max(1, Math.ceil(pace.transactionsPerBlock / BLOCK_PAGE));
  const eventTxs = needsEvents(rules) ? pace.eventTransactionsPerBlock : 0;
  const events = retired ? eventTxs : eventTxs / EVENTS_BATCH;
  const tipAndHeaders = retired ? Math.ceil(Math.max(1, blocks) / HEADER_PAGE) : 1;
  return Math.ceil(blocks * (pages + events)) + tipAndHeaders;
}

/**
 * Per subject: the header chain (its newest page is the tip too), one page per subject (more when its hits
 * fill pages), one batch that places every contract's new logs, and the events of the principals' hits whose
 * rows show a watched asset moving.
 */
export function perSubjectCost(blocks: number, subjects: Subjects, pace: ChainPace = MAINNET_PACE): number {
  const hits = blocks * pace.hitsPerSubjectBlock;
  const headers = Math.ceil(Math.max(1, blocks) / HEADER_PAGE);
  const feeds = subjects.contracts.length * Math.max(1, Math.ceil(hits / 100)) + subjects.principals.length * Math.max(1, Math.ceil(hits / 50));
  const batch = Math.ceil((hits * subjects.contracts.length) / BATCH_IDS);
  return headers + feeds + batch + Math.ceil(hits * subjects.principals.length * pace.movedShare);
}

export function chooseFetchPlan(input: FetchPlanInput): FetchPlan {
  const pace = input.pace ?? MAINNET_PACE;
  const { unbound, ...subjects } = subjectsOf(input.rules);
  const blockScan = blockScanCost(input.blocks, input.rules, input.retired, pace);
  const count = subjects.contracts.length + subjects.principals.length;
  if (unbound.length > 0) {
    const names = unbound.length === 1 ? `rule ${unbound[0]}` : `${unbound.length} rules (${unbound.join(', ')})`;
    return {
      way: 'block-scan',
      subjects,
      estimate: { perSubject: null, blockScan },
      reason: `${names} names no address, so only reading every block can match it`,
    };
  }
  const perSubject = perSubjectCost(input.blocks, subjects, pace);
  const way = perSubject < blockScan ? 'per-subject' : 'block-scan';
  const cheaper = Math.min(perSubject, blockScan);
  const fits = cheaper <= input.budget ? '' : `; neither fits the ${input.budget} requests left, so the run covers fewer blocks`;
  const reason =
    way === 'per-subject'
      ? `reading ${count} subject${count === 1 ? '' : 's'} over ${input.blocks} blocks costs about ${perSubject} requests, against ${blockScan} for the block scan${fits}`
      : `the block scan costs about ${blockScan} requests for ${input.blocks} blocks, no more than the ${perSubject} of reading ${count} subject${count === 1 ? '' : 's'}${fits}`;
  return { way, subjects, estimate: { perSubject, blockScan }, reason };
}
