// The sBTC lifecycle tracker (core/sbtc) as a stage: each block's sbtc-registry prints become the tracker's
// observations, applied at the block's Bitcoin height, and what the tracker tells becomes `sbtc_lifecycle`
// alerts after the block's other alerts. It runs only when the watch config has the `sbtcLifecycle` section (the
// `sbtc-bridge` pack sets it) and watches the logs of an `sbtc-registry` contract (the pack's rules do, naming the
// deployer of the network): that rule names the registry to read, so a testnet deployment is followed as well as
// mainnet's. Watching the registry's prints alone does not ask for deadline alerts.
import type { ChainAlert } from '../alert-kinds/chain-kinds';
import { sbtcLifecycleKind } from '../alert-kinds/sbtc-lifecycle';
import { decodeClarityOrNull } from '../clarity/decode';
import type { Block, TxEvents } from '../domain';
import type { SbtcObservation } from '../sbtc/observations';
import { readRegistryPrint } from '../sbtc/registry-prints';
import { createSbtcTracker } from '../sbtc/tracker';
import { SBTC_STATE_VERSION, type SbtcTrackerState } from '../sbtc/tracker-state';
import type { Telemetry } from '../ports';
import type { BlockStage } from './block-stage';

/** The contract name the sBTC deployment gives its registry, whose prints the tracker reads. */
export const REGISTRY_CONTRACT_NAME = 'sbtc-registry';

/** The registry contracts whose logs the rules watch: what switches the stage on. */
export function watchedRegistries(contractIds: Iterable<string>): string[] {
  return [...contractIds].filter((id) => id.split('.')[1] === REGISTRY_CONTRACT_NAME);
}

/** The block's registry prints as observations, in chain order; a print that is not well formed is told to the operator's log, never observed. */
export function registryObservations(
  block: Block,
  events: ReadonlyMap<string, TxEvents>,
  registries: ReadonlySet<string>,
  telemetry: Pick<Telemetry, 'log'>,
): SbtcObservation[] {
  const out: SbtcObservation[] = [];
  for (const tx of block.transactions) {
    // Only a successful transaction's prints happened: an aborted one's were rolled back with it.
    if (tx.txStatus !== 'success') continue;
    for (const log of events.get(tx.txId)?.logs ?? []) {
      if (!registries.has(log.contractId)) continue;
      const value = decodeClarityOrNull(log.valueHex);
      const read = value === null ? { ok: false as const, problem: 'sbtc-registry print is not a Clarity value' } : readRegistryPrint(value);
      if (!read.ok) {
        telemetry.log('warn', `${read.problem}; not followed`, { txId: tx.txId, eventIndex: log.eventIndex, height: block.header.height });
        continue;
      }
      if (read.print) out.push({ source: 'chain', print: read.print, stacksHeight: block.header.height, stacksTxid: tx.txId });
    }
  }
  return out;
}

export const sbtcLifecycleStage: BlockStage<SbtcTrackerState> = {
  name: 'sbtcLifecycle',
  version: SBTC_STATE_VERSION,
  // Rides the cursor write; see docs/sbtc.md for its size (records open at once, each kept a day after it ends).
  kept: 'cursor',
  open({ rules, deps, network }) {
    if (rules.sbtcLifecycle === undefined) return null;
    const registries = new Set(watchedRegistries(rules.contractLogs.keys()));
    if (registries.size === 0) return null;
    const tracker = createSbtcTracker();
    return {
      apply(at, alerts, before) {
        const burnHeight = at.block.header.burnHeight;
        const observations = registryObservations(at.block, at.events, registries, deps.telemetry);
        if (burnHeight === undefined) {
          // Without the Bitcoin height no deadline can be timed: the block changes nothing, and says so when it had prints.
          if (observations.length > 0) deps.telemetry.log('warn', 'sBTC prints in a block without its Bitcoin height; not followed', { height: at.block.header.height });
          return { alerts, state: before };
        }
        const { state, events } = tracker.apply(before ?? tracker.initial(), observations, burnHeight);
        const raised: ChainAlert[] = events.map((event) => ({ ...sbtcLifecycleKind.build(event, network), block_height: at.block.header.height }) as unknown as ChainAlert);
        return { alerts: [...alerts, ...raised], state };
      },
      rollback: (state, forkHeight) => ({ state: state && tracker.rollback(state, forkHeight) }),
    };
  },
};
