// `--check`'s and `--status`'s words for how the pending rules read the mempool (core/mempool/mempool-plan.ts): the
// whole list, or each named principal's own mempool route, with the requests each costs and why. `--status` asks
// the run's own choice (chooseMempoolRead) of the state the next run will read, so it says what that run does and
// in the words of its `cycle done` line; `--check`, without a state, asks the same choice where it turns.
import {
  chooseMempoolRead,
  listPagesForPrincipals,
  MEASURE_KEPT_MS,
  MEMPOOL_LIST_PAGE,
  pendingPrincipals,
  type MempoolReadWay,
} from '../core/mempool/mempool-plan';
import { MEMPOOL_LIMITS } from '../core/mempool/mempool-limits';
import type { MempoolState } from '../core/mempool/mempool-ports';
import { pendingRules } from '../core/mempool/pending-rules';
import { compileWatchRules } from '../core/rules/rule-lists';
import { plural } from '../core/rules/rule-words';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import { duration } from './duration-words';

const MOST = MEMPOOL_LIMITS.maxPages;
const KEPT = `${MEASURE_KEPT_MS / 60_000} min`;
const NO_ROUTE = '    an API without the principal mempool route (it answers 404) is read through the list, with one notice';

/** The whole list's cost when no measure stands, `per` naming the time it is spent in ("a cycle"; "" for the next run). */
const wholeList = (per: string) => `the whole list, 1 to ${plural(MOST, 'request')}${per} (newest first, until a transaction seen before)`;

/** A way in words, for `count` principals. */
const wayWords = (way: MempoolReadWay, count: number) => (way === 'list' ? 'the whole list' : `${count === 1 ? 'the' : 'each'} principal's own mempool route`);

/** The principals the config's pending rules name; undefined without pending rules. */
function principalsOf(config: WatchConfig): string[] | null | undefined {
  const rules = pendingRules(compileWatchRules(config));
  return rules ? pendingPrincipals(rules) : undefined;
}

function heading(principals: readonly string[] | null): string {
  return `- reading the mempool for the pending rules${principals === null ? '' : ` (${plural(principals.length, 'principal')} named)`}`;
}

/** `--check`: when a cycle reads each principal's route rather than the list, at what cost; null without pending rules. */
export function mempoolCheckWords(config: WatchConfig): string | null {
  const principals = principalsOf(config);
  if (principals === undefined) return null;
  if (principals === null) return `${heading(null)}: ${wholeList(' a cycle')}: ${chooseMempoolRead(null, { seen: [], tracked: [] }, 0).reason}`;
  const from = listPagesForPrincipals(principals);
  const count = principals.length;
  if (from === null) {
    return [
      `${heading(principals)}:`,
      `    ${wholeList(' a cycle')}: ${count} principals' own routes would cost no less than the list at its most, ${plural(MOST, 'page')} a cycle`,
    ].join('\n');
  }
  const takes = from === MOST ? plural(from, 'page') : `${from} or more pages`;
  return [
    `${heading(principals)}:`,
    `    ${wayWords('principals', count)}, about ${plural(count, 'request')} a cycle, while the whole list takes ${takes} a cycle (${MEMPOOL_LIST_PAGE} transactions a page), as last measured`,
    `    else ${wholeList(' a cycle')}`,
    `    the first run reads the list to measure what it costs, and measures it again once the measure is ${KEPT} old`,
    NO_ROUTE,
  ].join('\n');
}

/**
 * `--status`: the way the next run reads the mempool, its requests and why, as that run will choose from `state`
 * (null: none yet, and a run starts afresh); null without pending rules.
 */
export function mempoolStatusWords(config: WatchConfig, state: MempoolState | null, nowMs: number): string | null {
  const principals = principalsOf(config);
  if (principals === undefined) return null;
  const plan = chooseMempoolRead(principals, state ?? { seen: [], tracked: [] }, nowMs);
  const cost =
    plan.way === 'principals'
      ? `${wayWords('principals', plan.principals)}, about ${plural(plan.estimate.principals ?? 0, 'request')}`
      : plan.estimate.list === null
        ? wholeList('')
        : `the whole list, about ${plural(plan.estimate.list, 'request')}`;
  const lines = [`${heading(principals)}, the next run:`, `    ${cost}: ${plan.reason}`];
  const measure = state?.read?.listPages;
  if (measure) {
    const pages = `${plural(measure.pages, 'page')} a run`;
    const ago = duration(Math.max(0, Math.round((nowMs - measure.at) / 1000)));
    lines.push(
      plan.estimate.list === null
        ? `    the list's last measure, ${pages} ${ago} ago, is older than ${KEPT}`
        : `    the list's ${pages} ${measure.pages === 1 ? 'was' : 'were'} measured ${ago} ago, and ${measure.pages === 1 ? 'is' : 'are'} measured again once ${KEPT} old`,
    );
  }
  if (state?.read) lines.push(`    the last run read ${wayWords(state.read.way, plan.principals)}`);
  if (plan.way === 'principals') lines.push(NO_ROUTE);
  return lines.join('\n');
}
