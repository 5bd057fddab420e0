// The chain health check of one run, over its ports: the state the last run left, the tip this run read
// already, the node only when the pure assessment (chain-health.ts) asks for it, and the run's delivery stage.
// Exactly once across crashes: the next state, with its new alerts in an outbox, is written before they are
// sent, and the outbox emptied after; a run that died between finds the outbox and sends it again, the alert
// records (claimed by key) making a second send of an alert already out a no-op. So a condition is alerted
// once when it opens, once when it ends, and an end decided is never lost.
import type { Alert } from '../alert-kinds/alert';
import {
  assessChainHealth,
  CHAIN_HEALTH_DEFAULTS,
  CHAIN_HEALTH_VERSION,
  delivered,
  needsNodeReading,
  type ChainHealthState,
  type NodeReading,
} from './chain-health';
import { AlertInFlightError } from '../deliver/delivery';
import type { CycleDeps } from '../cycle-types';
import type { DeliveryStage } from '../deliver/delivery-stage';
import type { ChainTip, Network } from '../domain';
import type { ChainApi, RecordPort, Telemetry } from '../ports';

export interface ChainHealthDeps {
  chain: Pick<ChainApi, 'getNodeTip'>;
  state: RecordPort<'chainHealth'>;
  deliver(alerts: readonly Alert[]): Promise<unknown>;
  now(): number;
  log: Telemetry['log'];
}

/** A tip that only moved is written at most this often (the loop mode runs every few seconds): a stall is timed to within it. */
const TIP_WRITE_EVERY_MS = 60_000;

export interface ChainHealthConfig {
  stallMinutes?: number | undefined;
  tenureBlocks?: number | undefined;
}

/**
 * The cycle's call, after its scan: an alert another run is still publishing leaves the outbox written for the
 * next run, like a status alert in flight; anything else fails the run as every state error does.
 */
export async function checkChainHealthInCycle(
  deps: CycleDeps,
  delivery: DeliveryStage,
  tip: ChainTip,
  config: ChainHealthConfig,
  network: Network,
): Promise<void> {
  const ports = {
    chain: deps.chain,
    state: deps.state,
    deliver: (alerts: readonly Alert[]) => delivery.deliver(alerts),
    now: () => deps.clock.now(),
    log: (...args: Parameters<CycleDeps['telemetry']['log']>) => deps.telemetry.log(...args),
  };
  try {
    await checkChainHealth(ports, tip, config, network);
  } catch (error) {
    if (!(error instanceof AlertInFlightError)) throw error;
    deps.telemetry.log('warn', `${error.message}; chain health sends it again next run`);
  }
}

/** One run's check; returns whether the node was asked (the one request it may add). */
export async function checkChainHealth(deps: ChainHealthDeps, tip: ChainTip, config: ChainHealthConfig, network: Network): Promise<{ nodeAsked: boolean }> {
  const settings = {
    stallMinutes: config.stallMinutes ?? CHAIN_HEALTH_DEFAULTS.stallMinutes,
    tenureBlocks: config.tenureBlocks ?? CHAIN_HEALTH_DEFAULTS.tenureBlocks,
  };
  let state = await readState(deps);
  if (state && state.outbox.length > 0) {
    // A run died between deciding these and knowing them sent: send them again (a no-op for those already out).
    await deps.deliver(state.outbox);
    state = delivered(state);
    await deps.state.writeRecord('chainHealth', state);
  }
  const reading = { height: tip.height, hash: tip.hash, burnHeight: tip.burnHeight ?? null };
  const nowMs = deps.now();
  const wanted = needsNodeReading(state, reading, nowMs, settings);
  const nodeAsked = wanted && deps.chain.getNodeTip !== undefined;
  const node: NodeReading | null = !wanted ? null : nodeAsked ? await readNode(deps) : { unavailable: 'this API client has no Stacks node to ask' };
  const next = assessChainHealth({ state, tip: reading, node, nowMs, settings, network });
  if (next.outbox.length > 0) {
    await deps.state.writeRecord('chainHealth', next);
    await deps.deliver(next.outbox);
    await deps.state.writeRecord('chainHealth', delivered(next));
  } else if (worthWriting(state, next, nowMs)) {
    await deps.state.writeRecord('chainHealth', next);
  }
  return { nodeAsked };
}

/** A stored state of another version is not guessed at: chain health starts over from this run (nothing open). */
async function readState(deps: ChainHealthDeps): Promise<ChainHealthState | null> {
  const state = await deps.state.readRecord('chainHealth');
  if (state && state.version !== CHAIN_HEALTH_VERSION) {
    deps.log('warn', `chain health state of version ${String(state.version)} is not this version's (${CHAIN_HEALTH_VERSION}); starting over from this run`);
    return null;
  }
  return state;
}

async function readNode(deps: ChainHealthDeps): Promise<NodeReading> {
  try {
    return await deps.chain.getNodeTip!();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.log('warn', `chain health could not ask the Stacks node behind the API: ${reason}`);
    return { unavailable: reason };
  }
}

/** Anything but a moving tip is written at once; a moving tip once a minute. */
function worthWriting(before: ChainHealthState | null, after: ChainHealthState, nowMs: number): boolean {
  if (!before) return true;
  if (JSON.stringify(before.open) !== JSON.stringify(after.open)) return true;
  const { tip } = after;
  const moved = tip.hash !== before.tip.hash || tip.burnHeight !== before.tip.burnHeight;
  return moved && nowMs - before.tip.movedAt >= TIP_WRITE_EVERY_MS;
}
