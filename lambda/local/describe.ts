// The runner's words for people: what a config watches (--check), where a state stands (--status), and
// one line per cycle that did something. Pure functions of their inputs, so each is tested as text.
import type { WatchConfigMemo } from '../core/watch-config/watch-config-source';
import type { CycleSummary } from '../core/cycle-types';
import type { Cursor } from '../core/ports';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { compileWatchRules, ruleLists } from '../core/rules/rule-lists';
import { describeCooldownsAndMutes, pastMuteWarnings } from './describe-cooldowns-mutes';
import { balanceBudgetWords } from './describe-balances';
import { fetchPlanWords, statusPlanWords } from './describe-fetch-plan';
import { mempoolCheckWords, mempoolStatusWords } from './describe-mempool-read';
import type { MempoolState } from '../core/mempool/mempool-ports';
import { duration } from './duration-words';
import type { FetchWay } from '../core/follow/fetch-choice';
import { bareAmountWarnings } from '../core/watch-config/amount-warnings';
import { describePacks } from '../core/packs';
import { describeLifecycle } from '../core/sbtc/lifecycle-section';
import type { AnyRuleList } from '../core/rules/rule-list';
import { plural } from '../core/rules/rule-words';
import { FIRST_SIGHTS_ALONE_MAX, sweepCycles } from '../core/match/contract-status-sweep';
import { formatCount } from '../core/render/stx-amount';
import { contractStatusSweep } from '../hiro';
import { RATE_LIMIT_WITH_KEY, RATE_LIMIT_WITHOUT_KEY } from '../hiro/options';

export interface ApiDescription {
  baseUrl: string;
  /** True when STACKS_API_URL chose it, false for the network's default. */
  fromEnvironment: boolean;
  requestsPerMinute: number;
  hasKey: boolean;
  /** Seconds between the watch loop's cycles (`--interval`); the status sweep moves a slice a cycle. */
  cycleSeconds?: number;
  /** FETCH_WAY: how the runner reads the chain, said under the plan. */
  fetchWay?: FetchWay;
}

/** The local runner's default `--interval`. */
const DEFAULT_CYCLE_SECONDS = 30;

/** `--check`: everything the config and environment set, in words; nothing is fetched. `nowMs` dates the mutes. */
export function describeWatch(
  config: WatchConfig,
  api: ApiDescription,
  configPath: string,
  lists: readonly AnyRuleList[] = ruleLists,
  nowMs: number = Date.now(),
): string {
  const lines = [`${configPath} is valid. stacks-watch would watch ${config.network}:`];
  for (const list of lists) {
    const words = list.describe(config);
    if (words !== null) lines.push(words);
  }
  const rules = compileWatchRules(config, lists);
  lines.push(...pastMuteWarnings(rules.cooldownsAndMutes, nowMs));
  lines.push(...describePacks(config));
  const sbtc = describeLifecycle(
    config.sbtcLifecycle,
    config.network,
    config.contractLogs.map((rule) => rule.contractId),
  );
  if (sbtc !== null) lines.push(sbtc);
  lines.push(...bareAmountWarnings(config));
  const sweep = sweepWords(config.contracts.length, api);
  if (sweep !== null) lines.push(sweep);
  const balanceReads = balanceBudgetWords(config, api, { seconds: api.cycleSeconds ?? DEFAULT_CYCLE_SECONDS, word: 'cycle' });
  if (balanceReads !== null) lines.push(balanceReads);
  lines.push(fetchPlanWords(config, api.requestsPerMinute, api.cycleSeconds ?? DEFAULT_CYCLE_SECONDS, api.fetchWay));
  const mempoolRead = mempoolCheckWords(config);
  if (mempoolRead !== null) lines.push(mempoolRead);
  const start = config.startHeight === 'latest' ? 'at the current tip' : `at block ${config.startHeight}`;
  lines.push(
    `- first run starts ${start} (later runs resume from the saved cursor), ${plural(config.confirmations, 'block')} behind the tip, ` +
      `at most ${plural(config.maxBlocksPerRun, 'block')} a cycle`,
  );
  lines.push(
    `API: ${api.baseUrl} (${api.fromEnvironment ? 'from STACKS_API_URL' : `Hiro's ${config.network} default`}), ` +
      `${api.hasKey ? 'with' : 'without'} an API key, at most ${api.requestsPerMinute} requests a minute`,
  );
  return lines.join('\n') + '\n';
}

export { plural };

function minutes(seconds: number): string {
  return seconds < 120 ? `${Math.round(seconds)} s` : `about ${formatCount(Math.round(seconds / 60))} min`;
}

/**
 * How long a sweep of the watched contracts' statuses takes, without an API key and with one: a long list
 * is checked a slice a cycle, within a tenth of the request budget (lambda/hiro/status-share.ts).
 */
function sweepWords(count: number, api: ApiDescription): string | null {
  if (count === 0) return null;
  const cycleSeconds = api.cycleSeconds ?? DEFAULT_CYCLE_SECONDS;
  const cyclesAt = (requestsPerMinute: number) => sweepCycles(count, contractStatusSweep(requestsPerMinute, cycleSeconds * 1000));
  const withoutKey = cyclesAt(api.hasKey ? RATE_LIMIT_WITHOUT_KEY : api.requestsPerMinute);
  const withKey = cyclesAt(api.hasKey ? api.requestsPerMinute : RATE_LIMIT_WITH_KEY);
  const summed = count > FIRST_SIGHTS_ALONE_MAX ? '; their first check is summed up in one alert a cycle, then each change alerts alone' : '';
  if (withoutKey === 1) return `- contract statuses: all ${formatCount(count)} checked every cycle${summed}`;
  return (
    `- contract statuses: ${formatCount(count)} contracts are checked a slice a cycle: a full sweep takes ${formatCount(withoutKey)} cycles ` +
    `without an API key (${minutes(withoutKey * cycleSeconds)} at one cycle every ${cycleSeconds} s), ` +
    `${formatCount(withKey)} with one (${minutes(withKey * cycleSeconds)})${summed}; \`--once\` checks them all`
  );
}

export interface StatusFacts {
  statePath: string;
  network: string;
  /** The watch config's rules: their mutes are shown with what the state says they held. */
  config: WatchConfig;
  cursor: Cursor | null;
  /** Unix ms now. */
  nowMs: number;
  /** The chain tip's height, or why it is unknown. */
  tip: { height: number } | { error: string };
  /** The config file this run reads. */
  configPath: string;
  /** With --table: the version the deployed watcher runs (its memo), and a refused one if any. */
  liveConfig?: WatchConfigMemo | null;
  /** FETCH_WAY: how the runner reads the chain, said under the plan. */
  fetchWay?: FetchWay;
  /** With pending rules: the mempool record the next run reads (null: none yet), which decides how it reads the mempool. */
  mempool?: MempoolState | null;
}

function liveConfigLine(memo: WatchConfigMemo | null): string {
  if (!memo) return 'deployed watch config: no version taken into use yet';
  const refused = memo.rejected
    ? `; version ${memo.rejected.versionId} refused (${plural(memo.rejected.problemCount ?? memo.rejected.problems.length, 'problem')}: ${memo.rejected.problems[0]})`
    : '';
  return `deployed watch config: version ${memo.good.versionId}${refused}`;
}

/** `--status`: the cursor, how old and how far behind it is, and the alerts waiting on a reorg's outcome. */
export function describeStatus(facts: StatusFacts): string {
  const { cursor } = facts;
  const lines = [`state: ${facts.statePath} (${facts.network})`, `watch config: ${facts.configPath}`];
  if (facts.liveConfig !== undefined) lines.push(liveConfigLine(facts.liveConfig));
  if (!cursor) {
    lines.push("cursor: none yet (no block scanned; the first run starts at the config's startHeight)");
  } else {
    const age = Math.max(0, Math.round(facts.nowMs / 1000 - cursor.time));
    lines.push(`cursor: block ${cursor.height} ${cursor.hash}, mined ${duration(age)} ago (${new Date(cursor.time * 1000).toISOString()})`);
  }
  if ('error' in facts.tip) lines.push(`tip: unknown (${facts.tip.error})`);
  else if (cursor) lines.push(`tip: block ${facts.tip.height}, ${plural(Math.max(0, facts.tip.height - cursor.height), 'block')} behind`);
  else lines.push(`tip: block ${facts.tip.height}`);
  if (!('error' in facts.tip)) lines.push(statusPlanWords(facts.config, cursor?.height ?? null, facts.tip.height, facts.fetchWay));
  const mempoolRead = mempoolStatusWords(facts.config, facts.mempool ?? null, facts.nowMs);
  if (mempoolRead !== null) lines.push(mempoolRead);
  const pending = cursor?.pendingRetractions;
  lines.push(
    pending && pending.keys.length > 0
      ? `pending retractions: ${plural(pending.keys.length, 'alert')} from replaced blocks, confirmed or retracted once the scan reaches block ${pending.untilHeight}`
      : 'pending retractions: none',
  );
  lines.push(...describeCooldownsAndMutes(compileWatchRules(facts.config).cooldownsAndMutes, cursor?.quiet, facts.nowMs));
  return lines.join('\n') + '\n';
}

/** One line for a cycle that scanned blocks, sent alerts or met a reorg; null for a quiet one. */
export function cycleLine(summary: CycleSummary): string | null {
  if (summary.blocksScanned === 0 && summary.alertsPublished === 0 && summary.reorgs === 0) return null;
  const parts: string[] = [];
  if (summary.blocksScanned > 0) {
    const last = summary.cursor?.height;
    const range = last === undefined || summary.reorgs > 0 ? '' : summary.blocksScanned === 1 ? ` (${last})` : ` (${last - summary.blocksScanned + 1}–${last})`;
    parts.push(`scanned ${plural(summary.blocksScanned, 'block')}${range}`);
  }
  const byType = Object.entries(summary.alertsByType).map(([type, n]) => `${n} ${type}`);
  parts.push(summary.alertsPublished === 0 ? 'no alerts' : `${plural(summary.alertsPublished, 'alert')} (${byType.join(', ')})`);
  if (summary.reorgs > 0) parts.push(plural(summary.reorgs, 'reorg'));
  if (summary.lagBlocks !== null) parts.push(summary.lagBlocks === 0 ? 'at the tip' : `${plural(summary.lagBlocks, 'block')} behind the tip`);
  return parts.join(', ');
}
