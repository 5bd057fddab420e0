// The sBTC lifecycle tracker (core/sbtc) as a stage: each block's sbtc-registry prints become the tracker's
// observations, applied at the block's Bitcoin height, and what the tracker tells becomes `sbtc_lifecycle`
// alerts (and, with the settled follow-up on, `sbtc_settlement` chain alerts) after the block's other alerts. It
// runs only when the watch config has the `sbtcLifecycle` section (the `sbtc-bridge` pack sets it); the section
// names the registry it follows (core/sbtc/lifecycle-section.ts), which the compiled rules then make the scan read.
// Watching the registry's prints alone does not ask for deadline alerts. Emily (sBTC's public API) is asked
// through its port once a Bitcoin block, at the first block at the tip's Bitcoin height (emily-polling.ts): its
// records join the block's prints, and what goes wrong with it reaches the operator, never the alerts.
import type { ChainAlert } from '../alert-kinds/chain-kinds';
import { sbtcLifecycleKind } from '../alert-kinds/sbtc-lifecycle';
import { decodeClarityOrNull } from '../clarity/decode';
import { buildSbtcSettlement } from '../alert-kinds/sbtc-settlement';
import type { Block, TxEvents } from '../domain';
import { tokenOfRegistry, trackerSettings, watchedRegistries } from '../sbtc/lifecycle-section';
import type { SbtcObservation } from '../sbtc/observations';
import { EMILY_POLL_SLICE_MS, pollEmilyAt, type EmilyTurn } from '../sbtc/emily-polling';
import { readRegistryPrint } from '../sbtc/registry-prints';
import { createSbtcTracker, rollbackSbtc } from '../sbtc/tracker';
import { admitWithin, SBTC_STATE_MAX_BYTES } from '../sbtc/state-bound';
import { MAX_TRACKED, SBTC_STATE_VERSION, type SbtcTrackerState } from '../sbtc/tracker-state';
import type { Telemetry } from '../ports';
import type { RecordKeptStage, StageBlock, StageRecord, StageRun } from './block-stage';

export { REGISTRY_CONTRACT_NAME, watchedRegistries } from '../sbtc/lifecycle-section';

/**
 * The recipient of the sBTC minted for a registry's `completed-deposit` print: the deposit contract mints, then
 * calls the registry, so it is the last mint of that amount before the print (a batch of deposits in one
 * transaction is mint, print, mint, print…).
 */
function mintedTo(events: TxEvents | undefined, registry: string, printIndex: number, amountSats: bigint): string | undefined {
  const token = tokenOfRegistry(registry);
  const mints = (events?.assets ?? []).filter(
    (a) => a.asset === 'ft' && a.action === 'mint' && a.assetId === token && a.amount === amountSats.toString() && a.eventIndex < printIndex,
  );
  return (
    mints.reduce<(typeof mints)[number] | undefined>((last, a) => (last === undefined || a.eventIndex > last.eventIndex ? a : last), undefined)?.recipient ??
    undefined
  );
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
    const txEvents = events.get(tx.txId);
    for (const log of txEvents?.logs ?? []) {
      if (!registries.has(log.contractId)) continue;
      const value = decodeClarityOrNull(log.valueHex);
      const read = value === null ? { ok: false as const, problem: 'sbtc-registry print is not a Clarity value' } : readRegistryPrint(value);
      if (!read.ok) {
        telemetry.log('warn', `${read.problem}; not followed`, { txId: tx.txId, eventIndex: log.eventIndex, height: block.header.height });
        continue;
      }
      if (!read.print) continue;
      const recipient = read.print.topic === 'completed-deposit' ? mintedTo(txEvents, log.contractId, log.eventIndex, read.print.amountSats) : undefined;
      out.push({ source: 'chain', print: read.print, stacksHeight: block.header.height, stacksTxid: tx.txId, ...(recipient ? { mintedTo: recipient } : {}) });
    }
  }
  return out;
}

export const sbtcLifecycleStage: RecordKeptStage<'sbtcLifecycle'> = {
  name: 'sbtcLifecycle',
  version: SBTC_STATE_VERSION,
  // A record of its own, written before the cursor write that passes blocks which changed it; see docs/sbtc.md
  // for its size (records open at once, each kept a day after it ends).
  kept: 'record',
  open(run) {
    const { rules, deps, network } = run;
    const section = rules.sbtcLifecycle;
    if (section === undefined) return null;
    // The section's registry is among the logs read (compileWatchRules adds it); a testnet section without one is refused by the config check.
    const registries = new Set(watchedRegistries(rules.contractLogs.keys()));
    if (registries.size === 0) return null;
    const tracker = createSbtcTracker(trackerSettings(section));
    const emily = emilyPoller(run);
    return {
      async apply(at, alerts, before) {
        const burnHeight = at.block.header.burnHeight;
        const observations = registryObservations(at.block, at.events, registries, deps.telemetry);
        if (burnHeight === undefined) {
          // Without the Bitcoin height no deadline can be timed: the block changes nothing, and says so when it had prints.
          if (observations.length > 0)
            deps.telemetry.log('warn', 'sBTC prints in a block without its Bitcoin height; not followed', { height: at.block.header.height });
          return { alerts, state: before };
        }
        const { height, hash } = at.block.header;
        const start = before ?? tracker.initial();
        const turn = await emily(at, start, burnHeight, observations);
        // Emily's records first: a deposit it lists is followed before this block's print of its mint completes it.
        const { state, events, settlements } = tracker.apply(start, [...(turn?.observations ?? []), ...observations], burnHeight, height);
        if (turn) Object.assign(state, { polled: turn.polled, emilyProblem: turn.problem });
        // Within its bytes as well as its count: past either, a record is counted untracked, never stored too big.
        admitWithin(start, state);
        if (start.untracked === 0 && state.untracked > 0) await tellCeiling(run, state.untracked);
        const raised: ChainAlert[] = events.map((event) => ({ ...sbtcLifecycleKind.build(event, network), block_height: height }) as unknown as ChainAlert);
        const settled: ChainAlert[] = settlements.map((event) => buildSbtcSettlement(event, { network, height, hash }));
        return { alerts: [...alerts, ...raised, ...settled], state };
      },
      rollback: (state, forkHeight) => ({ state: state && tracker.rollback(state, forkHeight) }),
      record: trackerRecord(),
    };
  },
};

/**
 * The tracker's record: read at the cursor's height (a run that died between the record write and the cursor
 * write left it ahead: what the prints above the cursor said is taken back, as a reorg would, and the rescan
 * says it again; what was told stays told), written only when it changed since read or written.
 */
function trackerRecord(): StageRecord<SbtcTrackerState> {
  /** The record as stored (JSON), or null when the store does not hold this state yet. */
  let stored: string | null = null;
  return {
    loaded(record, cursorHeight, fromCursor) {
      stored = record === null || fromCursor ? null : JSON.stringify(record);
      // Another version's state, or a record with no cursor to rescan from: the tracker starts over.
      if (record === null || record.version !== SBTC_STATE_VERSION || cursorHeight === null) return undefined;
      return rollbackSbtc(record, cursorHeight);
    },
    take(state) {
      if (state === undefined || JSON.stringify(state) === stored) return null;
      stored = JSON.stringify(state);
      return structuredClone(state);
    },
  };
}

/** A block less old than this counts as at the tip when the API did not give the tip's Bitcoin height. */
const RECENT_BLOCK_SECONDS = 600;

/**
 * The run's one poll of Emily: at the first block at the tip's Bitcoin height (Emily says how things stand now,
 * so its records are applied at no older block, where a deposit's clock would start early), once a run, never
 * in a replay. Its notice, when it has news, goes to the operator.
 */
function emilyPoller({ deps, budget, tip, replay }: StageRun) {
  let asked = false;
  const atTip = (at: StageBlock, burnHeight: number): boolean =>
    tip?.burnHeight !== undefined ? burnHeight >= tip.burnHeight : deps.clock.now() / 1000 - at.block.header.time <= RECENT_BLOCK_SECONDS;
  return async (at: StageBlock, state: SbtcTrackerState, burnHeight: number, prints: readonly SbtcObservation[]): Promise<EmilyTurn | null> => {
    if (asked || replay || !deps.emily || !atTip(at, burnHeight)) return null;
    const deadlineMs = Math.min(budget?.deadlineMs ?? Number.POSITIVE_INFINITY, deps.clock.now() + EMILY_POLL_SLICE_MS);
    const turn = await pollEmilyAt(deps.emily, state, burnHeight, deadlineMs, completedBy(prints));
    if (!turn) return null;
    asked = true;
    deps.telemetry.log('info', 'sBTC: Emily asked', { bitcoinHeight: burnHeight, requests: turn.requests, records: turn.observations.length });
    if (turn.notice) await deps.operator?.notify({ kind: 'sbtc-emily', subject: emilySubject(turn.problem), message: turn.notice });
    return turn;
  };
}

/** Once, when the tracker first refuses a record at its ceiling: what is not followed, and what to do. */
async function tellCeiling({ deps }: StageRun, refused: number): Promise<void> {
  await deps.operator?.notify({
    kind: 'sbtc-untracked',
    subject: 'stacks-watch: the sBTC tracker is full',
    message:
      `The sBTC lifecycle tracker follows at most ${MAX_TRACKED} deposits and withdrawals at once, in at most ${SBTC_STATE_MAX_BYTES / 1000} KB (its state is one record of the state store, one DynamoDB item on AWS); ` +
      `${refused} more were not followed, and no deadline alert will come for them. Name the recipients and senders to follow in the sbtcLifecycle section. ` +
      'This is said once.',
  });
}

function completedBy(prints: readonly SbtcObservation[]): Set<string> {
  return new Set(
    prints.flatMap((o) => (o.source === 'chain' && o.print.topic === 'completed-deposit' ? [`${o.print.bitcoinTxid}:${o.print.outputIndex}`] : [])),
  );
}

function emilySubject(problem: string | null): string {
  if (problem === null) return 'stacks-watch: Emily (sBTC) answers again';
  return problem.startsWith('malformed') ? 'stacks-watch: Emily (sBTC) sent records it cannot read' : 'stacks-watch: Emily (sBTC) is failing';
}
