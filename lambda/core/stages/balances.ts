// The balances of the `balances` rules as a stage: before each block, the reads it is due (a first check, a
// gap, a reconciliation, within the run's share of the request budget: balance-reads.ts); then the block's
// movements (balance-tracker.ts), whose threshold crossings become `balance_threshold` alerts in chain order
// among the block's other alerts. The state is the book of balance-book.ts; too big for the cursor item, it is
// kept in a record of its own, written before the cursor write that passes a block which changed it.
import type { ChainAlert } from '../alert-kinds/chain-kinds';
import { balanceThresholdOf } from '../alert-kinds/balance-threshold';
import { hasEventsBeyondList } from '../alert-kinds/listed-events';
import type { ChainPosition, Matched } from '../alert-kinds/kind';
import { BALANCE_DELTA_BLOCKS, emptyBook, pruned, rolledBack } from './balance-book';
import { BalanceReads, readDueBalances } from './balance-reads';
import { BalanceTracker } from './balance-tracker';
import { silentTelemetry } from '../ports';
import type { RecordKeptStage, StageBlock } from './block-stage';

/** After every position a matcher gave: an alert a stage raised comes last. */
const LAST: ChainPosition = { txIndex: Number.POSITIVE_INFINITY, eventIndex: Number.POSITIVE_INFINITY };

/** `found` placed among `alerts` by position; at the same position, after them (as the kinds' order had it). */
export function inChainOrder(alerts: readonly ChainAlert[], found: readonly Matched<ChainAlert>[], at: StageBlock): ChainAlert[] {
  if (found.length === 0) return [...alerts];
  const placed = alerts.map((alert) => ({ alert, at: at.positionOf(alert) ?? LAST }));
  return [...placed, ...found].sort((a, b) => a.at.txIndex - b.at.txIndex || a.at.eventIndex - b.at.eventIndex).map((m) => m.alert);
}

export const balancesStage: RecordKeptStage<'balances'> = {
  name: 'balances',
  version: 1,
  kept: 'record',
  // Fees and native transfers come from the block's list; whatever else a successful transaction moved, only its
  // events say (any call may move a watched balance).
  eventsWanted: (rules) => (rules.balances.rules.length > 0 ? (tx) => tx.txStatus === 'success' && hasEventsBeyondList(tx) : null),
  open({ rules, deps, budget, replay }) {
    if (rules.balances.rules.length === 0) return null;
    const tracker = new BalanceTracker(rules.balances.rules);
    const reads = new BalanceReads(tracker, deps, budget?.balanceReads);
    /** The book as last read or written: a state equal to it is not written again. */
    let stored = JSON.stringify(emptyBook());
    return {
      async apply(at, alerts, state) {
        tracker.adopt(state ?? emptyBook());
        // A read that fails or does not fit the run's share leaves its rule waiting, never the block; a replay
        // reads every due rule and fails on a read it cannot make.
        if (replay) await readDueBalances(tracker, at.block, { chain: deps.chain, telemetry: silentTelemetry });
        else await reads.before(at.block);
        const found = tracker.apply(at.block, at.events).map((c) => ({ at: c.at, alert: balanceThresholdOf(c, at.block.header, at.network) }));
        return { alerts: inChainOrder(alerts, found, at), state: tracker.record };
      },
      rollback: (state, forkHeight) => ({ state: rolledBack(state ?? emptyBook(), forkHeight) }),
      record: {
        loaded(book, cursorHeight) {
          // Changes above the cursor (a run that died before its cursor write) are dropped, as are removed rules.
          tracker.load(book, cursorHeight);
          stored = JSON.stringify(tracker.record);
          return tracker.record;
        },
        take(state, headHeight) {
          if (state === undefined || JSON.stringify(state) === stored) return null;
          stored = JSON.stringify(state);
          return structuredClone(pruned(state, headHeight - BALANCE_DELTA_BLOCKS + 1));
        },
      },
    };
  },
};
