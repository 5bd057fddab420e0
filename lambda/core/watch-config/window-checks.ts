// The sense checks on `windows` that a schema of one list cannot make: a window's `of` names a rule of a
// block list, whose alerts carry what the window adds up; a rule that says `"alert": false` feeds some window;
// and what the windows may hold at once fits the state the cursor carries (docs/windows.md).
import type { AnyRuleList } from '../rules/rule-list';
import { WINDOW_REORG_MARGIN_BLOCKS, WINDOW_TX_IDS } from '../stages/window-state';
import { formatPath, type ConfigProblem } from './config-problems';
import { windowAmountProblems } from './window-amounts';
import { formatCount } from '../render/stx-amount';

/** Blocks a minute a window is sized for: Stacks' fast blocks come about every 5 seconds, and a match in each. */
export const PLAUSIBLE_BLOCKS_PER_MINUTE = 12;
/** The hard cap on one window's entries (one per block with matches). */
export const WINDOW_ENTRIES_MAX = 2_000;
/** What all windows may hold at once, in bytes of their stored state, beside the cursor (a DynamoDB item holds 400 KB). */
export const WINDOW_STATE_MAX_BYTES = 200_000;
/** Stored bytes of one entry and of one transaction id, at most. */
const ENTRY_BYTES = 60;
const TX_ID_BYTES = 70;

interface WindowInput {
  name?: unknown;
  of?: unknown;
  minutes?: unknown;
  count?: unknown;
  sum?: unknown;
}

interface NamedRule {
  list: AnyRuleList;
  path: (string | number)[];
  rule: Record<string, unknown>;
}

/** Every rule object of a block list (and every list's `…Rule` object), with its path. */
function blockRules(config: Readonly<Record<string, unknown>>, lists: readonly AnyRuleList[]): NamedRule[] {
  const found: NamedRule[] = [];
  for (const list of lists) {
    if (list.aggregate) continue;
    const key = list.metaKey ?? list.name;
    const value = config[key];
    const entries: [(string | number)[], unknown][] = Array.isArray(value) ? value.map((rule, index) => [[key, index], rule]) : [[[key], value]];
    for (const [path, rule] of entries) {
      if (typeof rule === 'object' && rule !== null) found.push({ list, path, rule: rule as Record<string, unknown> });
    }
  }
  return found;
}

/** One window's entries at most: a block with matches each, over its minutes, and no more than a count needs. */
export function windowEntries(window: WindowInput): number {
  const minutes = typeof window.minutes === 'number' ? window.minutes : 0;
  const blocks = minutes * PLAUSIBLE_BLOCKS_PER_MINUTE;
  return typeof window.count === 'number' ? Math.min(window.count, blocks) : blocks;
}

/** The stored bytes of one window at most: its entries, the ones kept for a reorg, and their transaction ids. */
export function windowBytes(window: WindowInput): number {
  const entries = windowEntries(window) + WINDOW_REORG_MARGIN_BLOCKS;
  return entries * ENTRY_BYTES + (WINDOW_TX_IDS + WINDOW_REORG_MARGIN_BLOCKS * WINDOW_TX_IDS) * TX_ID_BYTES;
}

function ofProblems(window: WindowInput, index: number, rules: readonly NamedRule[], windowNames: ReadonlySet<string>): ConfigProblem[] {
  const at = (key: string, message: string): ConfigProblem => ({ path: formatPath(['windows', index, key]), value: window[key as keyof WindowInput], message });
  const named = rules.filter((r) => r.rule.name === window.of);
  if (named.length === 0) {
    if (typeof window.of === 'string' && windowNames.has(window.of))
      return [at('of', 'names a window: a window counts the matches of a rule of "contractLogs", "transfers", "calls" or "addressesRule"')];
    return [at('of', 'names no rule: give the rule to count a "name" and write it here (a rule of "contractLogs", "transfers", "calls" or "addressesRule")')];
  }
  const problems: ConfigProblem[] = [];
  for (const { list, path } of named) {
    const where = formatPath(path);
    if (list.windowSum === undefined)
      problems.push(at('of', `names ${where}, whose alerts are not found in blocks: a window counts the matches of a block rule`));
    else if (window.sum === undefined) continue;
    else if (list.windowSum === null) problems.push(at('sum', `cannot add up the matches of ${where}: its alerts carry no amount; count them with "count"`));
    else if (list.windowSum === 'amount' && window.sum !== 'amount')
      problems.push(at('sum', `must be "amount" for ${where}: its alerts carry the amount moved`));
  }
  return problems;
}

function sizeProblems(windows: readonly WindowInput[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  windows.forEach((window, index) => {
    const entries = windowEntries(window);
    if (entries <= WINDOW_ENTRIES_MAX) return;
    const most = Math.floor(WINDOW_ENTRIES_MAX / PLAUSIBLE_BLOCKS_PER_MINUTE);
    problems.push({
      path: formatPath(['windows', index, 'minutes']),
      value: window.minutes,
      message:
        `would hold up to ${formatCount(entries)} blocks of matches (${PLAUSIBLE_BLOCKS_PER_MINUTE} blocks a minute, a match in each), ` +
        `more than the ${formatCount(WINDOW_ENTRIES_MAX)} a window may: ${window.count === undefined ? `use at most ${most} minutes` : `use at most ${most} minutes or a smaller "count"`}`,
    });
  });
  const bytes = windows.reduce((sum, window) => sum + windowBytes(window), 0);
  if (problems.length === 0 && bytes > WINDOW_STATE_MAX_BYTES) {
    problems.push({
      path: '$.windows',
      value: windows.length,
      message: `would keep up to ${Math.ceil(bytes / 1000)} KB of counts beside the cursor, more than the ${WINDOW_STATE_MAX_BYTES / 1000} KB allowed: use fewer or shorter windows`,
    });
  }
  return problems;
}

/** The windows' sense problems, each at its path; none when the config has no windows and no count-only rule (`"alert": false`). */
export function windowProblems(config: Readonly<Record<string, unknown>>, lists: readonly AnyRuleList[]): ConfigProblem[] {
  const windows = (Array.isArray(config.windows) ? config.windows : []) as WindowInput[];
  const rules = blockRules(config, lists);
  const windowNames = new Set(windows.map((w) => w.name).filter((n): n is string => typeof n === 'string'));
  const problems = windows.flatMap((window, index) => ofProblems(window, index, rules, windowNames));
  const counted = new Set(windows.map((w) => w.of));
  for (const { path, rule } of rules) {
    if (rule.alert !== false || counted.has(rule.name)) continue;
    problems.push({
      path: formatPath([...path, 'alert']),
      value: false,
      message:
        typeof rule.name === 'string'
          ? `no window counts "${rule.name}": with "alert": false its matches would go nowhere (name it in a window's "of", or leave "alert" out)`
          : 'needs a "name" that a window\'s "of" names: with "alert": false the rule only feeds a window',
    });
  }
  return [...problems, ...windowAmountProblems(config), ...sizeProblems(windows)];
}
