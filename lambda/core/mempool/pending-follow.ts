// What a pending rule's alert says, and what becomes of a waiting transaction once alerted: still waiting
// (read again later, less and less often), mined (the block scan alerts it, with `pending_key`), or gone
// unmined (`pending_dropped`, once, with the API's reason). A bounded number of status reads per run.
import type { PendingAlert } from '../alert-kinds/alert';
import { pendingCallKind } from '../alert-kinds/pending-call';
import { pendingDroppedKind } from '../alert-kinds/pending-dropped';
import { pendingTransferKind } from '../alert-kinds/pending-transfer';
import type { CycleDeps } from '../cycle-types';
import type { DeliveryStage } from '../deliver/delivery-stage';
import type { MempoolApi, MempoolState, MempoolTx, PendingTxStatus, TrackedPending } from './mempool-ports';
import { MEMPOOL_LIMITS } from './mempool-limits';
import type { PendingMatch } from './pending-rules';
import type { Network } from '../domain';
import type { Telemetry } from '../ports';

/** The alerts of matched waiting transactions; the calls' arguments are read first, at once (the list leaves them out). */
export async function buildPendingAlerts(api: MempoolApi, matches: readonly PendingMatch[], network: Network, telemetry: Telemetry): Promise<PendingAlert[]> {
  const calls = matches.filter((match) => match.kind === 'call').map((match) => match.tx.txId);
  const args =
    calls.length === 0
      ? new Map<string, string[] | null>()
      : await api.readPendingCallArgs(calls).catch((error: unknown) => {
          telemetry.log('warn', "could not read waiting calls' arguments; their pending alerts go without them", {
            txIds: calls,
            reason: error instanceof Error ? error.message : String(error),
          });
          return new Map<string, string[] | null>();
        });
  return matches.map((match) => {
    const { tx, meta } = match;
    const common = { txId: tx.txId, sender: tx.sender, fee: tx.fee, nonce: tx.nonce, receivedAt: tx.receivedAt, meta };
    if (match.kind === 'transfer') {
      const { recipient, amount, memo, memoText } = match.transfer;
      return pendingTransferKind.build({ ...common, recipient, amount, memo, memoText, direction: match.direction, address: match.address }, network);
    }
    const { contractId, functionName } = match.call;
    return pendingCallKind.build({ ...common, contractId, functionName, args: args.get(tx.txId) ?? null }, network);
  });
}

/** What following the tracked transactions needs from the run. */
export interface FollowContext {
  deps: CycleDeps;
  api: MempoolApi;
  network: Network;
  delivery: DeliveryStage;
}

/**
 * The tracked transactions' fates, updating `state.tracked`: those listed this run are still waiting; of the
 * others whose time has come, a few have their status read; a dropped one raises `pending_dropped` (claimed, so
 * once) and is let go; one waiting past the expiry is let go with a log line.
 */
export async function followTracked(context: FollowContext, state: MempoolState, listed: readonly MempoolTx[]): Promise<void> {
  const { deps } = context;
  const now = deps.clock.now();
  const waiting = new Set(listed.map((tx) => tx.txId));
  const expired = state.tracked.filter((entry) => now - entry.seenAt > MEMPOOL_LIMITS.expireMs);
  if (expired.length > 0) {
    deps.telemetry.log('info', 'waiting transactions neither mined nor dropped after a day are no longer followed', { txIds: expired.map((e) => e.txId) });
  }
  state.tracked = state.tracked.filter((entry) => !expired.includes(entry));
  // Listed this run: still waiting, nothing to read. A new one with the same sender and nonce replaces it: read at once.
  const replacing = new Set(listed.map((tx) => `${tx.sender}:${tx.nonce}`));
  const replaced = (entry: TrackedPending) => entry.nonce !== undefined && replacing.has(`${entry.sender}:${entry.nonce}`);
  const due = state.tracked
    .filter((entry) => (entry.nextCheckAt <= now || replaced(entry)) && !waiting.has(entry.txId))
    .sort((a, b) => a.nextCheckAt - b.nextCheckAt)
    .slice(0, MEMPOOL_LIMITS.statusReadsPerRun);
  if (due.length === 0) return;
  const statuses = await context.api.readPendingStatuses(due.map((entry) => entry.txId));
  const dropped: { entry: TrackedPending; status: Extract<PendingTxStatus, { state: 'dropped' }> }[] = [];
  const minedLongAgo = new Set<string>();
  for (const entry of due) {
    const status = statuses.get(entry.txId) ?? { state: 'unknown' };
    if (status.state === 'dropped') dropped.push({ entry, status });
    // Mined: the block scan alerts it with its pending_key; asked again only if the scan never gets to it.
    else if (status.state === 'mined') {
      // The block scan alerts it with its pending_key once it gets there; a mined call whose rule wants another
      // outcome never alerts, so it is let go at the read after this one.
      if (entry.minedAt !== undefined) minedLongAgo.add(entry.txId);
      entry.minedAt ??= now;
      entry.checks += 1;
      entry.nextCheckAt = now + MEMPOOL_LIMITS.maxCheckMs;
    } else later(entry, now);
  }
  state.tracked = state.tracked.filter((entry) => !minedLongAgo.has(entry.txId));
  if (dropped.length === 0) return;
  const alerts = dropped.map(({ entry, status }) =>
    pendingDroppedKind.build(
      {
        txId: entry.txId,
        pendingKey: entry.pendingKey,
        sender: entry.sender,
        contractId: entry.contractId ?? null,
        address: entry.address ?? null,
        what: entry.what,
        reason: status.reason,
        replacedBy: status.replacedBy,
        meta: { rule: entry.rule, severity: entry.severity },
      },
      context.network,
    ),
  );
  await context.delivery.deliver(alerts);
  const gone = new Set(dropped.map(({ entry }) => entry.txId));
  state.tracked = state.tracked.filter((entry) => !gone.has(entry.txId));
}

/** Read again later: a minute after the first read, then twice as long after each, up to the cap. */
function later(entry: TrackedPending, now: number): void {
  entry.nextCheckAt = now + Math.min(MEMPOOL_LIMITS.firstCheckMs * 2 ** entry.checks, MEMPOOL_LIMITS.maxCheckMs);
  entry.checks += 1;
}
