// The runner's words for people: what a config watches (--check), where a state stands (--status), and
// one line per cycle that did something. Pure functions of their inputs, so each is tested as text.
import type { CycleSummary } from '../core/cycle-types';
import type { Cursor } from '../core/ports';
import type { TransferRule } from '../core/alert-kinds/transfer-rules';
import type { WatchConfig } from '../config/watch-config-schema';
import type { RuleMetaConfig } from '../core/rule-meta';

export interface ApiDescription {
  baseUrl: string;
  /** True when STACKS_API_URL chose it, false for the network's default. */
  fromEnvironment: boolean;
  requestsPerMinute: number;
  hasKey: boolean;
}

/** `--check`: everything the config and environment set, in words; nothing is fetched. */
export function describeWatch(config: WatchConfig, api: ApiDescription, configPath: string): string {
  const lines = [`${configPath} is valid. stacks-watch would watch ${config.network}:`];
  lines.push(list('deployment status of', config.contracts, 'contract', `an alert on first sight and on every change${ruleWords(config.contractsRule)}`));
  lines.push(
    list('STX arriving at', config.addresses, 'address', `an alert for each transfer, native or inside a contract call${ruleWords(config.addressesRule)}`),
  );
  lines.push(
    config.transfers.length === 0
      ? '- no transfer rules'
      : [
          `- asset movements by ${plural(config.transfers.length, 'transfer rule')}:`,
          ...config.transfers.map((r) => `    ${transferRuleText(r)}${ruleWords(r)}`),
        ].join('\n'),
  );
  lines.push(
    config.contractLogs.length === 0
      ? '- no contract logs'
      : [
          `- logs printed by ${plural(config.contractLogs.length, 'contract rule')}:`,
          ...config.contractLogs.map((r) => `    ${r.contractId}${logFilter(r)}${ruleWords(r)}`),
        ].join('\n'),
  );
  const calls = config.calls ?? [];
  if (calls.length > 0) {
    lines.push(
      [
        `- calls to contracts, ${plural(calls.length, 'rule')}:`,
        ...calls.map(
          (r) =>
            `    ${r.contractId} (${r.status === 'any' ? 'every outcome' : r.status === 'failed' ? 'failed calls' : 'successful calls'}` +
            `${r.functions ? `, functions ${r.functions.join(', ')}` : ''}${r.from ? `, from ${r.from.join(', ')}` : ''})${ruleWords(r)}`,
        ),
      ].join('\n'),
    );
  }
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

function logFilter(rule: WatchConfig['contractLogs'][number]): string {
  if (rule.contains === undefined && rule.where === undefined) return ' (every log)';
  const parts = [
    ...(rule.contains === undefined ? [] : [`containing "${rule.contains}"`]),
    ...(rule.where === undefined ? [] : [`where ${JSON.stringify(rule.where)}`]),
  ];
  return ` (logs ${parts.join(' and ')})`;
}

/** `, named "Treasury inflow", critical` for a rule that says either; nothing for the defaults. */
function ruleWords(meta: RuleMetaConfig | undefined): string {
  if (!meta || (meta.name === undefined && meta.severity === undefined)) return '';
  return [meta.name === undefined ? '' : `, named "${meta.name}"`, meta.severity === undefined ? '' : `, ${meta.severity}`].join('');
}

function list(what: string, items: readonly string[], noun: string, effect: string): string {
  if (items.length === 0) return `- no ${noun === 'address' ? 'addresses' : `${noun}s`} (${what})`;
  return [`- ${what} ${plural(items.length, noun)} (${effect}):`, ...items.map((i) => `    ${i}`)].join('\n');
}

export function plural(n: number, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  return `${n} ${noun.endsWith('ss') ? noun + 'es' : noun + 's'}`;
}

export interface StatusFacts {
  statePath: string;
  network: string;
  cursor: Cursor | null;
  /** Unix ms now. */
  nowMs: number;
  /** The chain tip's height, or why it is unknown. */
  tip: { height: number } | { error: string };
}

/** `--status`: the cursor, how old and how far behind it is, and the alerts waiting on a reorg's outcome. */
export function describeStatus(facts: StatusFacts): string {
  const { cursor } = facts;
  const lines = [`state: ${facts.statePath} (${facts.network})`];
  if (!cursor) {
    lines.push('cursor: none yet (no block scanned; the first run starts at the config\'s startHeight)');
  } else {
    const age = Math.max(0, Math.round(facts.nowMs / 1000 - cursor.time));
    lines.push(`cursor: block ${cursor.height} ${cursor.hash}, mined ${duration(age)} ago (${new Date(cursor.time * 1000).toISOString()})`);
  }
  if ('error' in facts.tip) lines.push(`tip: unknown (${facts.tip.error})`);
  else if (cursor) lines.push(`tip: block ${facts.tip.height}, ${plural(Math.max(0, facts.tip.height - cursor.height), 'block')} behind`);
  else lines.push(`tip: block ${facts.tip.height}`);
  const pending = cursor?.pendingRetractions;
  lines.push(
    pending && pending.keys.length > 0
      ? `pending retractions: ${plural(pending.keys.length, 'alert')} from replaced blocks, confirmed or retracted once the scan reaches block ${pending.untilHeight}`
      : 'pending retractions: none',
  );
  // Alerts parked with a reason (held back on purpose, the cursor past them) belong here, one line each,
  // once the state records them.
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

function duration(totalSeconds: number): string {
  if (totalSeconds < 120) return `${totalSeconds} s`;
  if (totalSeconds < 2 * 3600) return `${Math.round(totalSeconds / 60)} min`;
  if (totalSeconds < 2 * 86_400) return `${Math.round(totalSeconds / 3600)} h`;
  return `${Math.round(totalSeconds / 86_400)} days`;
}

/** `stx to SP…, from SP… (at least 100 base units; transfer, burn)`. */
function transferRuleText(rule: TransferRule): string {
  const asset = rule.asset === '*' ? 'any asset' : rule.asset;
  const sides = [rule.to.length > 0 ? `to ${rule.to.join(', ')}` : '', rule.from.length > 0 ? `from ${rule.from.join(', ')}` : ''].filter(Boolean);
  const limits = [rule.minAmount === undefined ? '' : `at least ${rule.minAmount} base units`, rule.actions.join(', ')].filter(Boolean);
  return `${asset} ${sides.join(', ')} (${limits.join('; ')})`;
}
