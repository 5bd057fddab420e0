// One run's read of Emily for the lifecycle tracker: the open deposits and withdrawals (pending and accepted,
// page by page within the run's request bound), the limits, and each record the tracker follows that has left
// those lists (to learn whether it was minted, failed or replaced). Whatever Emily answers before a failure
// is kept; the failure is returned beside it, once, for the operator, and the next run reads again.
import type { SbtcObservation } from '../core/sbtc/observations';
import type { MalformedRecord, SbtcStatus } from '../core/sbtc/records';
import type { EmilyClient } from './client';
import { EmilyError } from './errors';

const OPEN: readonly SbtcStatus[] = ['pending', 'accepted'];

export interface EmilyPollRequest {
  /** The open deposit lists; default true. */
  openDeposits?: boolean;
  /** The open withdrawal lists; default true. */
  openWithdrawals?: boolean;
  /** `GET /limits`; default true. */
  limits?: boolean;
  /** Deposits the tracker follows that may have left the open lists: `txid:index`. */
  deposits?: readonly string[];
  /** Withdrawal request ids the tracker follows that may have left the open lists. */
  withdrawals?: readonly number[];
  /** Pages read per list before the rest waits for the next run. Default 5. */
  maxPages?: number;
}

export interface EmilyPoll {
  observations: SbtcObservation[];
  malformed: MalformedRecord[];
  /** The read that failed, if one did; everything read before it is in `observations`. */
  error: EmilyError | null;
}

export async function pollEmily(client: EmilyClient, request: EmilyPollRequest = {}): Promise<EmilyPoll> {
  const out: EmilyPoll = { observations: [], malformed: [], error: null };
  const maxPages = request.maxPages ?? 5;
  const steps: (() => Promise<void>)[] = [
    ...(request.openDeposits === false ? [] : OPEN).map(
      (status) => () =>
        pages(
          maxPages,
          (token) => client.deposits(status, token),
          (deposit) => out.observations.push({ source: 'emily', deposit }),
          out,
        ),
    ),
    ...(request.openWithdrawals === false ? [] : OPEN).map(
      (status) => () =>
        pages(
          maxPages,
          (token) => client.withdrawals(status, token),
          (withdrawal) => out.observations.push({ source: 'emily', withdrawal }),
          out,
        ),
    ),
    ...(request.limits === false ? [] : [async () => void out.observations.push({ source: 'emily', limits: await client.limits() })]),
    ...(request.deposits ?? []).map((id) => async () => {
      const [txid, index] = id.split(':');
      const deposit = await client.deposit(txid ?? '', Number(index));
      if (deposit) out.observations.push({ source: 'emily', deposit });
    }),
    ...(request.withdrawals ?? []).map((id) => async () => {
      const withdrawal = await client.withdrawal(id);
      if (withdrawal) out.observations.push({ source: 'emily', withdrawal });
    }),
  ];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof EmilyError)) throw error;
      out.error = error;
      // A spent budget, a deadline or Emily unreachable would fail every later read the same way.
      if (error.kind !== 'bad-input' && error.kind !== 'malformed-answer') break;
    }
  }
  return out;
}

async function pages<T>(
  maxPages: number,
  read: (token: string | undefined) => Promise<{ items: T[]; nextToken: string | null; malformed: MalformedRecord[] }>,
  keep: (item: T) => void,
  out: EmilyPoll,
): Promise<void> {
  let token: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const answer = await read(token);
    answer.items.forEach(keep);
    out.malformed.push(...answer.malformed);
    if (answer.nextToken === null) return;
    token = answer.nextToken;
  }
}
