// The small records of the state, each one JSON value kept by name beside the cursor: read whole, replaced
// whole, removed by writing null. One port for all of them (`RecordStore`), which each store implements once
// (DynamoDB: one item each, adapters/dynamodb/state-records.ts; the state file: one document member each), in
// the shape each record has always been stored in. Last writer wins: runs do not overlap (the lease), each
// record is written before the cursor write that relies on it, and what each holds says why a lost write
// costs nothing (its module). A stage kept in a record of its own (`kept: 'record'`) is stored under its name.
import type { SmsTally } from './deliver/sms-tally';
import type { ChainHealthState } from './health/chain-health';
import type { MempoolState } from './mempool/mempool-ports';
import type { SbtcTrackerState } from './sbtc/tracker-state';
import type { BalanceBookRecord } from './stages/balance-book';
import type { TokenMetadata } from './watch-config/token-decimals';

/**
 * Consecutive runs that failed at the same block: kept apart from the cursor so that a block that can never
 * be scanned reaches the operator after a few runs with its cause, and the record goes once a run gets past it.
 */
export interface BlockStall {
  height: number;
  /** Runs in a row that failed at `height`. */
  failures: number;
  /** Epoch ms of the first of those failures. */
  since: number;
  /** The latest failure's error message. */
  cause: string;
}

/** Every named record and what it holds. */
export interface StateRecords {
  /** The runs failing at one block (health/block-stalls.ts), written only when a run fails or recovers. */
  blockStall: BlockStall;
  /** What the SMS budget held back for its digest, and the loop's minute (deliver/sms-tally.ts). */
  smsTally: SmsTally;
  /** The balances stage's book (stages/balance-book.ts): too big for the cursor item. */
  balances: BalanceBookRecord;
  /** What the pending rules remember of the mempool (mempool/mempool-ports.ts). */
  mempool: MempoolState;
  /** The API tip's last move and the open conditions (health/chain-health.ts). */
  chainHealth: ChainHealthState;
  /** The decimals (and symbols) read from token metadata, by asset id: kept for ever. */
  tokenDecimals: Record<string, TokenMetadata>;
  /** The sBTC lifecycle stage's tracker (sbtc/tracker-state.ts): bounded by sbtc/state-bound.ts to fit one item. */
  sbtcLifecycle: SbtcTrackerState;
}

export type RecordName = keyof StateRecords;

/** Every record's name once (the type checker holds this list to `StateRecords`). */
const NAMES: { [N in RecordName]: true } = {
  blockStall: true,
  smsTally: true,
  balances: true,
  mempool: true,
  chainHealth: true,
  tokenDecimals: true,
  sbtcLifecycle: true,
};
export const RECORD_NAMES = Object.keys(NAMES) as readonly RecordName[];

export const isRecordName = (name: string): name is RecordName => (RECORD_NAMES as readonly string[]).includes(name);

/** The named records of a state store. */
export interface RecordStore {
  /** The record as last written, or null when there is none. */
  readRecord<N extends RecordName>(name: N): Promise<StateRecords[N] | null>;
  /** Replaces the record whole; null removes it. */
  writeRecord<N extends RecordName>(name: N, value: StateRecords[N] | null): Promise<void>;
}

/** What a feature that keeps one record needs of the store: that record's read and write (any RecordStore gives them). */
export interface RecordPort<N extends RecordName> {
  readRecord(name: N): Promise<StateRecords[N] | null>;
  writeRecord(name: N, value: StateRecords[N] | null): Promise<void>;
}
