// The port through which the sBTC lifecycle stage reads Emily (sBTC's public API). The core never calls fetch:
// the adapter (lambda/emily) sends the requests, with its own bound, timeouts and retries, and hands back the
// records it could read, the ones it set aside and the read that failed, as plain data.
import type { EmilyReadOutcome } from './emily-notices';
import type { SbtcObservation } from './observations';

/** What one read asks for. */
export interface EmilyReadPlan {
  /** The open deposit lists (`pending`, `reprocessing`, `accepted`), every page within the read's bound. */
  openDeposits: boolean;
  /** The open withdrawal lists: read when the tracker starts; after that the registry's prints tell of withdrawals. */
  openWithdrawals: boolean;
  /** `GET /limits`: the throttle. */
  limits: boolean;
  /** Deposits read one by one (`txid:index`): followed ones that left the open lists. */
  deposits: readonly string[];
}

/** What one read gives: the records read (all of them, or none when `error` is set and the plan had lists). */
export interface EmilyRead extends EmilyReadOutcome {
  observations: SbtcObservation[];
  /** HTTP requests sent, retries included. */
  requests: number;
}

export interface EmilyApi {
  /** Never throws: a failure is in `error`. No request is sent past `deadlineMs`. */
  read(plan: EmilyReadPlan, deadlineMs: number): Promise<EmilyRead>;
}
