// The windows over one block: each window takes the block's alerts of the rule it names (`of`), in chain
// order, and raises `window_threshold` when its count or sum crosses the threshold; it crosses again only
// after it has fallen below. Block time, not the clock: the same blocks give the same alerts live, after a
// crash, and in --replay. The state in and out is the cursor's (window-state.ts); nothing here reads a port.
import type { BlockHeader, Network } from '../domain';
import { chainKindOf, type ChainAlert } from '../alert-kinds/chain-kinds';
import type { CompiledWindow, CompiledWindows } from '../rules/window-rules';
import { windowThresholdKind, type WindowThresholdAlert } from '../alert-kinds/window-threshold';
import { counting, settle, WINDOW_TX_IDS, type WindowEntry, type WindowState, type WindowStates } from './window-state';

export interface WindowsOutcome {
  /** The crossings, in chain order, after the block's other alerts. */
  alerts: WindowThresholdAlert[];
  /** The state after the block (undefined while no window is configured). */
  states: WindowStates | undefined;
  /** The block's alerts to send: those of rules that say `"alert": false` only feed their windows. */
  sent: ChainAlert[];
}

/** A decimal integer (string or safe JSON number) as a bigint; null for anything else. */
function integer(raw: unknown): bigint | null {
  if (typeof raw === 'string' && /^-?\d+$/.test(raw)) return BigInt(raw);
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  return null;
}

/** What a window adds up of an alert, as its kind says (an amount, a path into a log's value); null: nothing. */
export function summedValue(alert: ChainAlert, field: string): bigint | null {
  return integer(chainKindOf(alert).chain.summed?.(alert, field));
}

const total = (window: CompiledWindow, entries: readonly WindowEntry[]) =>
  entries.reduce((sum, e) => sum + (window.sum === null ? BigInt(e.n) : BigInt(e.v)), 0n);

/** One window over one block. */
function advance(window: CompiledWindow, before: WindowState | undefined, header: BlockHeader, alerts: readonly ChainAlert[], network: Network) {
  const state: WindowState = before?.of === window.of ? before : { of: window.of, entries: [] };
  const seconds = window.minutes * 60;
  // Entries this block's time leaves behind stop counting here.
  const entries = state.entries.map((e) => (e.d === undefined && header.time - e.t >= seconds ? { ...e, d: header.height } : e));
  const live = counting({ of: state.of, entries });
  const base = total(window, live);
  let above = base >= window.threshold;
  const entry: WindowEntry = { h: header.height, t: header.time, n: 0, v: '0', c: 0, tx: [] };
  const txs = new Set<string>();
  const raised: WindowThresholdAlert[] = [];
  let added = 0n;
  for (const alert of alerts) {
    if (alert.rule !== window.of) continue;
    const value = window.sum === null ? 1n : summedValue(alert, window.sum);
    if (value === null) continue; // a match without the summed field adds nothing to a sum
    entry.n += 1;
    added += value;
    // Balance alerts (the only ones without a transaction) are never counted: window-checks.ts refuses them.
    if (alert.tx_id !== null) txs.add(alert.tx_id);
    const now = base + (window.sum === null ? BigInt(entry.n) : added);
    if (now < window.threshold) above = false;
    else if (!above) {
      above = true;
      raised.push(crossing(window, live, { ...entry, v: String(added), c: txs.size, tx: [...txs] }, now, alert, header, network));
    }
  }
  if (entry.n > 0) entries.push({ ...entry, v: String(added), c: txs.size, tx: [...txs].slice(-WINDOW_TX_IDS) });
  return { alerts: raised, state: settle({ ...state, entries }, header.height, window.sum === null ? Number(window.threshold) : null) };
}

function crossing(
  window: CompiledWindow,
  live: readonly WindowEntry[],
  current: WindowEntry,
  reached: bigint,
  alert: ChainAlert,
  header: BlockHeader,
  network: Network,
): WindowThresholdAlert {
  const all = [...live, current];
  return {
    type: 'window_threshold',
    key: windowThresholdKind.key(window.name, alert.key),
    network,
    tx_id: alert.tx_id ?? '',
    block_height: header.height,
    block_hash: header.hash,
    block_time: header.time,
    of: window.of,
    minutes: window.minutes,
    count: all.reduce((n, e) => n + e.n, 0),
    sum: window.sum === null ? null : String(reached),
    threshold: String(window.threshold),
    unit: window.unit?.name ?? null,
    decimals: window.unit?.decimals ?? null,
    first_block_height: all[0]!.h,
    last_block_height: header.height,
    tx_ids: all.flatMap((e) => e.tx).slice(-WINDOW_TX_IDS),
    tx_count: all.reduce((n, e) => n + e.c, 0),
    rule: window.name,
    severity: window.severity,
  };
}

/** Every window over one block's alerts (in chain order), from the state the cursor carries. */
export function advanceWindows(
  compiled: CompiledWindows,
  states: WindowStates | undefined,
  header: BlockHeader,
  alerts: readonly ChainAlert[],
  network: Network,
): WindowsOutcome {
  const sent = compiled.countOnly.size === 0 ? [...alerts] : alerts.filter((a) => a.rule === undefined || !compiled.countOnly.has(a.rule));
  if (compiled.windows.length === 0) return { alerts: [], states: undefined, sent };
  const next: WindowStates = {};
  const raised: WindowThresholdAlert[] = [];
  for (const window of compiled.windows) {
    const done = advance(window, states?.[window.name], header, alerts, network);
    raised.push(...done.alerts);
    next[window.name] = done.state;
  }
  return { alerts: raised, states: next, sent };
}
