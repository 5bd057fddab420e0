// How a run reads the chain, derived from the rules: per subject (each watched contract's logs, each tracked
// principal's transactions, events only for the transactions those feeds name) or the block scan (every
// block's transactions, events for every one that may carry a watched event), whichever costs fewer requests
// for the blocks to cover. A rule bound to no subject (a transfers rule naming no address on either side)
// can only be matched by reading every block: it keeps the block scan. Pure: the caller passes the pace, and
// what the process's earlier runs saw of the subjects and the blocks (observed-activity.ts) where it has it.
import type { WatchRules } from '../rules/rule-lists';
import { stageEventWants } from '../stages/stage-events';
import type { Subjects } from './subject-source';
import { SUBJECT_BATCH } from './subject-read-ahead';
import { BLOCK_PAGE, type BlockScanPace, type ObservedPace } from './observed-activity';

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

/** Page sizes of the routes the estimates count (the block list's: observed-activity.ts). */
const EVENTS_BATCH = 100;
const HEADER_PAGE = 30;
const BATCH_IDS = 50;
const LOGS_PAGE = 100;
const TRANSACTIONS_PAGE = 50;

export interface FetchPlanInput {
  rules: WatchRules;
  /** Blocks this run has to cover. */
  blocks: number;
  /** Requests the run may still make. */
  budget: number;
  /** True once the deprecated routes answer 410 (events then cost one request per transaction). */
  retired: boolean;
  pace?: ChainPace;
  /** Blocks from the first to cover up to the tip, which the header chain and every feed walk down from; `blocks` when absent. */
  walk?: number;
  /** What the process's earlier runs saw; the pace alone when absent. */
  observed?: ObservedPace;
}

export interface FetchPlan {
  way: 'per-subject' | 'block-scan';
  subjects: Subjects;
  /** Estimated requests for the blocks to cover, each way; per subject is null when a rule rules it out. */
  estimate: { perSubject: number | null; blockScan: number };
  /** Why, in words for `--check` and the run's log line. */
  reason: string;
  /** Set when the estimates used what earlier runs saw: how many subjects' feeds, and whether the block scan's blocks. */
  observed?: { subjects: number; blockScan: boolean };
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

/** The block scan's pace: pages from the block size, events for the transactions that may carry a watched one. */
function blockScanPace(rules: WatchRules, pace: ChainPace, observed?: ObservedPace): BlockScanPace {
  const prior = {
    pagesPerBlock: Math.max(1, Math.ceil(pace.transactionsPerBlock / BLOCK_PAGE)),
    eventReadsPerBlock: needsEvents(rules) ? pace.eventTransactionsPerBlock : 0,
  };
  return observed?.blockScan?.(prior) ?? prior;
}

/**
 * The block scan: each block's transaction pages, its events (batched while /tx/multiple answers, one a
 * transaction once it is gone), and the tip (from the v3 block list with the headers once the v2 routes are gone).
 */
export function blockScanCost(blocks: number, rules: WatchRules, retired: boolean, pace: ChainPace = MAINNET_PACE, observed?: ObservedPace): number {
  const { pagesPerBlock, eventReadsPerBlock } = blockScanPace(rules, pace, observed);
  const events = retired ? eventReadsPerBlock : eventReadsPerBlock / EVENTS_BATCH;
  const tipAndHeaders = retired ? Math.ceil(Math.max(1, blocks) / HEADER_PAGE) : 1;
  return Math.ceil(blocks * (pagesPerBlock + events)) + tipAndHeaders;
}

/** How a per-subject estimate reads: the walk's depth, whether events cost one request each, what was seen. */
export interface PerSubjectTerms {
  /** Blocks from the first to cover up to the tip (each read walks the header chain and the feeds down from the tip); `blocks` when absent. */
  walk?: number;
  /** Events one request a transaction (the batch route gone); true when absent. */
  retired?: boolean;
  observed?: ObservedPace;
}

/**
 * Per subject: each read of up to SUBJECT_BATCH blocks walks the header chain (its newest page is the tip too)
 * and every subject's feed from the tip down to its first block, a page for every 100 logs or 50 transactions
 * the subject has there; then one batch places each 50 contracts' new logs, and the principals' hits whose rows
 * show a watched asset moving (or whose events another rule reads) have their events read.
 */
export function perSubjectCost(blocks: number, subjects: Subjects, pace: ChainPace = MAINNET_PACE, terms: PerSubjectTerms = {}): number {
  const rate = (subject: string) => terms.observed?.itemsPerBlock(subject, pace.hitsPerSubjectBlock) ?? pace.hitsPerSubjectBlock;
  const contracts = subjects.contracts.map(rate);
  const principals = subjects.principals.map(rate);
  let walking = 0;
  for (let done = 0; done < Math.max(1, blocks); done += SUBJECT_BATCH) {
    const depth = Math.max(1, (terms.walk ?? blocks) - done, blocks - done);
    walking += Math.ceil(depth / HEADER_PAGE);
    for (const perBlock of contracts) walking += Math.max(1, Math.ceil((depth * perBlock) / LOGS_PAGE));
    for (const perBlock of principals) walking += Math.max(1, Math.ceil((depth * perBlock) / TRANSACTIONS_PAGE));
  }
  const sum = (rates: number[]) => rates.reduce((total, perBlock) => total + perBlock * blocks, 0);
  const batch = Math.ceil(sum(contracts) / BATCH_IDS);
  const reads = sum(principals) * (terms.observed?.readShare?.(pace.movedShare) ?? pace.movedShare);
  return walking + batch + Math.ceil((terms.retired ?? true) ? reads : reads / EVENTS_BATCH);
}

/** Which of the estimates used what earlier runs saw, for the reason; undefined when none did. */
function observedPart(subjects: Subjects, observed: ObservedPace | undefined, pace: ChainPace): FetchPlan['observed'] {
  if (!observed) return undefined;
  const seen = [...subjects.contracts, ...subjects.principals].filter((s) => observed.itemsPerBlock(s, pace.hitsPerSubjectBlock) !== undefined).length;
  const blockScan = observed.blockScan !== undefined;
  return seen > 0 || blockScan ? { subjects: seen, blockScan } : undefined;
}

function observedWords(part: FetchPlan['observed'], count: number): string {
  if (!part) return '';
  const seen = [
    ...(part.subjects > 0 ? [`${part.subjects} of ${count} subject feed${count === 1 ? '' : 's'}`] : []),
    ...(part.blockScan ? ["the block scan's blocks"] : []),
  ];
  return ` (estimated from what earlier runs saw: ${seen.join(', ')})`;
}

export function chooseFetchPlan(input: FetchPlanInput): FetchPlan {
  const pace = input.pace ?? MAINNET_PACE;
  const { unbound, ...subjects } = subjectsOf(input.rules);
  const blockScan = blockScanCost(input.blocks, input.rules, input.retired, pace, input.observed);
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
  const perSubject = perSubjectCost(input.blocks, subjects, pace, {
    retired: input.retired,
    ...(input.walk ? { walk: input.walk } : {}),
    observed: input.observed,
  });
  const way = perSubject < blockScan ? 'per-subject' : 'block-scan';
  const cheaper = Math.min(perSubject, blockScan);
  const observed = observedPart(subjects, input.observed, pace);
  const seen = observedWords(observed, count);
  const fits = cheaper <= input.budget ? '' : `; neither fits the ${input.budget} requests left, so the run covers fewer blocks`;
  const reason =
    way === 'per-subject'
      ? `reading ${count} subject${count === 1 ? '' : 's'} over ${input.blocks} blocks costs about ${perSubject} requests, against ${blockScan} for the block scan${seen}${fits}`
      : `the block scan costs about ${blockScan} requests for ${input.blocks} blocks, no more than the ${perSubject} of reading ${count} subject${count === 1 ? '' : 's'}${seen}${fits}`;
  return { way, subjects, estimate: { perSubject, blockScan }, reason, ...(observed ? { observed } : {}) };
}
