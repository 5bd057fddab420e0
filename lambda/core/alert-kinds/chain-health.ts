// `chain_health`: the chain itself, not a rule's match. One alert when a condition starts (the chain stopped, the
// API is stale, either of the two, no new tenure) and one "moving again" when it ends, which names the first by
// key so that PagerDuty resolves the incident the first opened. Raised by core/health/chain-health.ts.
import type { AlertBase } from './alert-base';
import { fields, id, networkName } from '../render/email-parts';
import { explorerBlockUrl, isoTime } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import type { Field, WatcherKind } from './kind';
import { defaultRuleName, WATCHER_RULE, type Severity } from '../stages/rule-meta';
import { SAMPLE_BLOCK_HASH } from './samples';

export const CHAIN_HEALTH_CONDITIONS = ['chain_stopped', 'api_stale', 'chain_or_api_stopped', 'no_new_tenure'] as const;
export type ChainHealthCondition = (typeof CHAIN_HEALTH_CONDITIONS)[number];

export interface ChainHealthAlert extends AlertBase {
  type: 'chain_health';
  condition: ChainHealthCondition;
  phase: 'started' | 'ended';
  /** On `ended`: the key of the `started` alert it closes (PagerDuty resolves that incident). */
  resolves: string | null;
  /** The API's Stacks tip when the condition started (on `ended`: still the started alert's). */
  stacks_tip_height: number;
  stacks_tip_hash: string;
  /** Unix seconds since when: the tip last moved (a stall) or its tenure's Bitcoin block was new (a tenure). */
  since: number;
  /** Minutes from `since` to this alert. */
  minutes: number;
  /** The Bitcoin block of the tip's tenure, as the API says; null when it did not say. */
  tenure_bitcoin_height: number | null;
  /** The Stacks node's own view behind the API, when it was asked; null when not (or it could not answer). */
  node_stacks_tip_height: number | null;
  bitcoin_height: number | null;
  /** On `ended`: the API's tip that ended it. */
  moved_to_height: number | null;
}

const SEVERITY: Record<ChainHealthCondition, Severity> = {
  chain_stopped: 'critical',
  api_stale: 'warning',
  chain_or_api_stopped: 'warning',
  no_new_tenure: 'warning',
};

const key = (condition: ChainHealthCondition, id: string) => `chain_health:${condition}:${id}`;

type Tip = { height: number; hash: string; burnHeight: number | null };
type Node = { stacksTipHeight: number; burnHeight: number } | null;
type Started = { phase: 'started'; condition: ChainHealthCondition; tip: Tip; node: Node; sinceMs: number; nowMs: number };
type Ended = { phase: 'ended'; opened: ChainHealthAlert; tip: Tip; node: Node; nowMs: number };

function build(input: Started | Ended, network: ChainHealthAlert['network']): ChainHealthAlert {
  if (input.phase === 'ended') {
    const { opened, tip, nowMs } = input;
    const minutes = Math.max(0, Math.floor((nowMs / 1000 - opened.since) / 60));
    return { ...opened, key: `${opened.key}:moving_again`, phase: 'ended', resolves: opened.key, minutes, moved_to_height: tip.height };
  }
  const { condition, tip, node, sinceMs, nowMs } = input;
  const identity = condition === 'no_new_tenure' ? String(tip.burnHeight) : tip.hash;
  return {
    type: 'chain_health',
    key: key(condition, identity),
    network,
    condition,
    phase: 'started',
    resolves: null,
    stacks_tip_height: tip.height,
    stacks_tip_hash: tip.hash,
    since: Math.floor(sinceMs / 1000),
    minutes: Math.max(0, Math.floor((nowMs - sinceMs) / 60_000)),
    tenure_bitcoin_height: tip.burnHeight,
    node_stacks_tip_height: node?.stacksTipHeight ?? null,
    bitcoin_height: node?.burnHeight ?? null,
    moved_to_height: null,
    rule: defaultRuleName(WATCHER_RULE, 'chain_health'),
    severity: SEVERITY[condition],
  };
}

const tipAt = (a: ChainHealthAlert) => `height ${formatCount(a.stacks_tip_height)}`;
const bitcoinAt = (a: ChainHealthAlert) => (a.bitcoin_height === null ? 'unknown' : `block ${formatCount(a.bitcoin_height)}`);

/** What the condition is, as its headline: the cause first. */
function headline(a: ChainHealthAlert): string {
  switch (a.condition) {
    case 'chain_stopped':
      return `the Stacks chain stopped: no new block for ${a.minutes} minutes at ${tipAt(a)}`;
    case 'api_stale':
      return `the API is stale: its Stacks tip has stayed at ${tipAt(a)} for ${a.minutes} minutes while the chain moved on`;
    case 'chain_or_api_stopped':
      return `either the chain or this API stopped: no new Stacks block for ${a.minutes} minutes at ${tipAt(a)}`;
    case 'no_new_tenure':
      return `no new tenure: Bitcoin is at ${bitcoinAt(a)}, the Stacks tenure began at Bitcoin block ${formatCount(a.tenure_bitcoin_height ?? 0)}`;
    default:
      // A record from another version read back: shown as it is, cleaned.
      return `chain health: ${conditionWords(a)} at ${tipAt(a)}`;
  }
}

/** Why this cause and not another: the evidence in words. */
function evidence(a: ChainHealthAlert): string {
  const node = a.node_stacks_tip_height === null ? null : formatCount(a.node_stacks_tip_height);
  switch (a.condition) {
    case 'chain_stopped':
      return `The Stacks node behind the API has no newer block either (its tip is height ${node}) while Bitcoin is at ${bitcoinAt(a)}: the chain itself stopped, not the API and not this watcher.`;
    case 'api_stale':
      return `The Stacks node behind the API is at height ${node}: the chain moves, the API's database does not. Alerts are late until the API catches up; another API (STACKS_API_URL) would not be.`;
    case 'chain_or_api_stopped':
      return 'The Stacks node behind the API could not be asked (or saw no Bitcoin block either), so this watcher cannot tell a stopped chain from an API that stopped reading it. Check the Stacks explorer or another API.';
    case 'no_new_tenure':
      return `Bitcoin has moved ${formatCount((a.bitcoin_height ?? 0) - (a.tenure_bitcoin_height ?? 0))} blocks past the Bitcoin block of the current tenure: no miner has started a new one. Blocks may still come from the old tenure (extended), or stop.`;
    default:
      return '';
  }
}

const ended = (a: ChainHealthAlert) => a.phase === 'ended';
const conditionWords = (a: ChainHealthAlert) => id(String(a.condition)).replaceAll('_', ' ');
const movingAgain = (a: ChainHealthAlert) =>
  `moving again after ${a.minutes} minutes: ${conditionWords(a)} ended (tip now height ${formatCount(a.moved_to_height ?? a.stacks_tip_height)})`;

export const chainHealthKind = {
  type: 'chain_health',
  key,
  build,

  subject: (a) => (ended(a) ? movingAgain(a) : headline(a)),

  email(a) {
    const rows: [string, string][] = [
      ['Network', networkName(a.network)],
      ['API Stacks tip', `${tipAt(a)} (hash ${id(a.stacks_tip_hash)}) since ${isoTime(a.since)}`],
      ['Node Stacks tip', a.node_stacks_tip_height === null ? 'not asked or no answer' : `height ${formatCount(a.node_stacks_tip_height)}`],
      ['Bitcoin tip', bitcoinAt(a)],
    ];
    if (ended(a)) {
      return [
        `Moving again on ${networkName(a.network)}: the condition "${headline({ ...a, phase: 'started' })}" has ended after ${a.minutes} minutes.`,
        '',
        fields(rows),
      ].join('\n');
    }
    return [
      `${headline(a)}.`,
      '',
      evidence(a),
      '',
      fields(rows),
      '',
      'A "moving again" message follows when it ends. This is about the chain or the API; the watcher\'s own lag is a separate notice.',
    ].join('\n');
  },

  sms: (a) => (ended(a) ? `Chain health: ${movingAgain(a)}` : `Chain health: ${headline(a)}.`),

  terminal: (a): Field[] => [
    ['Condition', conditionWords(a)],
    ['API Stacks tip', `${tipAt(a)} since ${isoTime(a.since)}`],
    ['Node Stacks tip', a.node_stacks_tip_height === null ? 'not asked' : formatCount(a.node_stacks_tip_height)],
    ['Bitcoin tip', bitcoinAt(a)],
    ...(ended(a) ? ([['Moved to', `height ${formatCount(a.moved_to_height ?? 0)}`]] as Field[]) : []),
  ],
  // The API's tip block: where the chain (or the API) stood.
  link: (a) => (/^0x[0-9a-fA-F]+$/.test(a.stacks_tip_hash) ? explorerBlockUrl(a.stacks_tip_hash, a.network) : null),
  attributes: () => ({}),

  sample: {
    type: 'chain_health',
    key: key('chain_stopped', SAMPLE_BLOCK_HASH),
    network: 'mainnet',
    condition: 'chain_stopped',
    phase: 'started',
    resolves: null,
    stacks_tip_height: 182345,
    stacks_tip_hash: SAMPLE_BLOCK_HASH,
    since: 1_764_160_000,
    minutes: 12,
    tenure_bitcoin_height: 925_100,
    node_stacks_tip_height: 182345,
    bitcoin_height: 925_101,
    moved_to_height: null,
    rule: 'watcher:chain_health',
    severity: 'critical',
  },
} satisfies WatcherKind<ChainHealthAlert, Started | Ended>;
