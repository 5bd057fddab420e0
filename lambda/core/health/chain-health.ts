// Chain health: is the chain itself moving? Pure: what the run read (the API's tip, and only when something
// looks wrong the Stacks node's own view) and what the last run left give the conditions open now, the alerts
// that open and close them, and the state to keep. No request, no clock: the caller passes both.
//
// The API's tip (`GET /extended`, read every run anyway) carries the Stacks tip and the Bitcoin height of its
// tenure. It cannot by itself tell a chain that stopped from an API that stopped ingesting: both freeze it. The
// Stacks node Hiro proxies (`GET /v2/info`) is a second witness fed apart from the API's database: its Stacks
// tip ahead of the API's means the API is stale; its Stacks tip no further while its Bitcoin tip is, means the
// chain stopped; no node to ask leaves the honest "either the chain or this API stopped". The node is asked only
// when a condition could open (the tip frozen, or its tenure old): zero extra requests while the chain moves.
import type { ChainHealthAlert, ChainHealthCondition } from '../alert-kinds/chain-health';
import { chainHealthKind } from '../alert-kinds/chain-health';
import type { Network } from '../domain';

export const CHAIN_HEALTH_VERSION = 1;

/**
 * The thresholds. Since Nakamoto a Stacks block comes every ~5-15 s; 10 minutes without one is ~50 missed blocks
 * and as long as Bitcoin's mean block interval, so a slow tenure change does not trip it. 2 Bitcoin blocks
 * without a new tenure is one whole tenure missed: one block can pass unused (no sortition winner) in healthy times.
 */
export interface ChainHealthSettings {
  stallMinutes: number;
  tenureBlocks: number;
}
export const CHAIN_HEALTH_DEFAULTS: ChainHealthSettings = { stallMinutes: 10, tenureBlocks: 2 };
/** Bitcoin's mean block interval: a tenure older than `tenureBlocks` of these is worth asking the node about. */
const BITCOIN_BLOCK_MS = 10 * 60_000;

/** The API's tip as `GET /extended` gives it; `burnHeight` is the Bitcoin block of the tip's tenure (null: not said). */
export interface ApiTipReading {
  height: number;
  hash: string;
  burnHeight: number | null;
}

/** The Stacks node's own view (`GET /v2/info`), or why it could not be read. */
export type NodeReading = { stacksTipHeight: number; burnHeight: number } | { unavailable: string };

export interface OpenCondition {
  condition: ChainHealthCondition;
  /** The key of the alert that opened it: the "moving again" alert resolves it (a PagerDuty resolve). */
  key: string;
  alert: ChainHealthAlert;
}

/** What one run leaves the next: small, versioned, replaced whole by each write. */
export interface ChainHealthState {
  version: typeof CHAIN_HEALTH_VERSION;
  tip: { height: number; hash: string; movedAt: number; burnHeight: number | null; burnMovedAt: number };
  open: OpenCondition[];
  /** Alerts decided but not yet known delivered: written before they are sent, so a crash loses none. */
  outbox: ChainHealthAlert[];
}

const STALL: readonly ChainHealthCondition[] = ['chain_stopped', 'api_stale', 'chain_or_api_stopped'];
const isStall = (c: ChainHealthCondition) => STALL.includes(c);

/**
 * Whether this run should ask the node: only when a condition not yet open could open now. While a stall is
 * open the tenure is not asked about: the stall is the news, and a run a minute would pay a request each.
 */
export function needsNodeReading(state: ChainHealthState | null, tip: ApiTipReading, nowMs: number, settings: ChainHealthSettings): boolean {
  if (!state) return false;
  const next = advanceTip(state, tip, nowMs);
  const open = (test: (c: ChainHealthCondition) => boolean) => state.open.some((o) => test(o.condition) && stillOpen(o, tip));
  const frozen = nowMs - next.tip.movedAt >= settings.stallMinutes * 60_000;
  const oldTenure = tip.burnHeight !== null && nowMs - next.tip.burnMovedAt >= settings.tenureBlocks * BITCOIN_BLOCK_MS;
  const stalled = open(isStall);
  return (frozen && !stalled) || (oldTenure && !stalled && !open((c) => c === 'no_new_tenure'));
}

/** The tip part of the state after this reading: a new hash is a move (a reorg's too). */
function advanceTip(state: ChainHealthState | null, tip: ApiTipReading, nowMs: number): ChainHealthState {
  const was = state?.tip;
  const moved = !was || was.hash !== tip.hash || was.height !== tip.height;
  const burnMoved = !was || tip.burnHeight !== was.burnHeight;
  return {
    version: CHAIN_HEALTH_VERSION,
    tip: {
      height: tip.height,
      hash: tip.hash,
      movedAt: moved ? nowMs : was.movedAt,
      burnHeight: tip.burnHeight,
      burnMovedAt: burnMoved ? nowMs : was.burnMovedAt,
    },
    open: state ? [...state.open] : [],
    outbox: state ? [...state.outbox] : [],
  };
}

/** A stall ends when the API's tip moves; a missing tenure when the tip's tenure is a newer Bitcoin block. */
function stillOpen(open: OpenCondition, tip: ApiTipReading): boolean {
  if (isStall(open.condition)) return open.alert.stacks_tip_hash === tip.hash;
  return tip.burnHeight === null || open.alert.tenure_bitcoin_height === null || tip.burnHeight <= open.alert.tenure_bitcoin_height;
}

/** Which stall it is, from the node's witness. */
function stallCause(tip: ApiTipReading, node: NodeReading | null): ChainHealthCondition {
  if (!node || 'unavailable' in node) return 'chain_or_api_stopped';
  return node.stacksTipHeight > tip.height ? 'api_stale' : 'chain_stopped';
}

export interface ChainHealthInput {
  state: ChainHealthState | null;
  tip: ApiTipReading;
  /** Null when the node was not asked this run. */
  node: NodeReading | null;
  nowMs: number;
  settings: ChainHealthSettings;
  network: Network;
}

/**
 * The next state, its outbox holding this run's new alerts after any left over: each condition opens once (a
 * key per frozen tip or per tenure) and closes once, with a "moving again" alert naming the one it resolves.
 */
export function assessChainHealth({ state, tip, node, nowMs, settings, network }: ChainHealthInput): ChainHealthState {
  const next = advanceTip(state, tip, nowMs);
  if (!state) return next;
  const keep: OpenCondition[] = [];
  for (const open of next.open) {
    if (stillOpen(open, tip)) keep.push(open);
    else next.outbox.push(chainHealthKind.build({ phase: 'ended', opened: open.alert, tip, node: reading(node), nowMs }, network));
  }
  next.open = keep;
  const frozenMs = nowMs - next.tip.movedAt;
  if (frozenMs >= settings.stallMinutes * 60_000 && !keep.some((o) => isStall(o.condition))) {
    const condition = stallCause(tip, node);
    open(next, chainHealthKind.build({ phase: 'started', condition, tip, node: reading(node), sinceMs: next.tip.movedAt, nowMs }, network));
  }
  const nodeBurn = reading(node)?.burnHeight;
  if (
    tip.burnHeight !== null &&
    nodeBurn !== undefined &&
    nodeBurn - tip.burnHeight >= settings.tenureBlocks &&
    !keep.some((o) => o.condition === 'no_new_tenure')
  ) {
    const alert = chainHealthKind.build(
      { phase: 'started', condition: 'no_new_tenure', tip, node: reading(node), sinceMs: next.tip.burnMovedAt, nowMs },
      network,
    );
    open(next, alert);
  }
  return next;
}

function open(state: ChainHealthState, alert: ChainHealthAlert): void {
  state.open.push({ condition: alert.condition, key: alert.key, alert });
  state.outbox.push(alert);
}

function reading(node: NodeReading | null): { stacksTipHeight: number; burnHeight: number } | null {
  return node && !('unavailable' in node) ? node : null;
}

/** The state with its outbox emptied: what is written once the outbox's alerts are delivered. */
export function delivered(state: ChainHealthState): ChainHealthState {
  return { ...state, outbox: [] };
}
