// The pending rules' stage of a cycle (docs/pending.md): it reads the mempool beside the block scan and sends
// its alerts after it, so it never holds the scan up and never moves the cursor. Its alerts go through the run's
// delivery stage, so the claims keep each one to a single send across crashes and overlapping runs; a mempool
// the API cannot serve costs one warning and no pending alert, never the run.
import type { ChainAlert, PendingAlert } from '../alert-kinds/alert';
import type { WatchRules } from '../rules/rule-lists';
import type { CycleDeps } from '../cycle-types';
import type { DeliveryStage } from '../deliver/delivery-stage';
import type { MempoolApi, MempoolState, MempoolTx, TrackedPending } from './mempool-ports';
import { afterRead, chooseMempoolRead, pendingPrincipals, type MempoolReadPlan } from './mempool-plan';
import { matchPending, pendingRules, type PendingMatch, type PendingRules } from './pending-rules';
import { buildPendingAlerts, followTracked } from './pending-follow';
import { MEMPOOL_LIMITS } from './mempool-limits';
import type { Network } from '../domain';
import { formatStx } from '../render/stx-amount';

const MINED_KINDS = new Set(['contract_call', 'token_transfer']);

export class MempoolWatch {
  /** Tracked transactions the scan alerted as mined this run: followed no further. */
  private readonly mined = new Set<string>();
  private readonly state: Promise<MempoolState>;
  private readonly list: Promise<{ txs: MempoolTx[]; plan: MempoolReadPlan } | { failed: string }>;
  /** How this run read the mempool, once it answered: for the run's log line. */
  private plan: MempoolReadPlan | undefined;

  private constructor(
    private readonly deps: CycleDeps,
    private readonly api: MempoolApi,
    private readonly rules: PendingRules,
    private readonly network: Network,
  ) {
    this.state = deps.state.readRecord('mempool').then(
      (state) => state ?? { seen: [], tracked: [] },
      (error: unknown) => {
        deps.telemetry.log('warn', 'could not read the mempool state; starting afresh this run', { reason: String(error) });
        return { seen: [], tracked: [] };
      },
    );
    this.list = this.state
      .then((state) => readWaiting(api, rules, state, deps.clock.now()))
      .catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
  }

  /** Starts reading the state and the mempool, or null when no rule is pending or the API has no mempool. */
  static start(deps: CycleDeps, rules: WatchRules, network: Network): MempoolWatch | null {
    const pending = pendingRules(rules);
    if (!pending || !deps.chain.mempool) return null;
    return new MempoolWatch(deps, deps.chain.mempool, pending, network);
  }

  /** For the scan: a mined call or transfer that raised a pending alert carries its key (`pending_key`). */
  async markMined(alerts: ChainAlert[]): Promise<ChainAlert[]> {
    if (!alerts.some((alert) => MINED_KINDS.has(alert.type))) return alerts;
    const tracked = new Map((await this.state).tracked.map((entry) => [entry.txId, entry.pendingKey]));
    return alerts.map((alert) => {
      // A balance alert (the only kind without a transaction) is never a mined call or transfer.
      const pendingKey = MINED_KINDS.has(alert.type) && alert.tx_id !== null ? tracked.get(alert.tx_id) : undefined;
      if (pendingKey === undefined || alert.tx_id === null) return alert;
      this.mined.add(alert.tx_id);
      return { ...alert, pending_key: pendingKey };
    });
  }

  /** How this run read the mempool (the whole list or per principal) and why, once it answered. */
  get readPlan(): MempoolReadPlan | undefined {
    return this.plan;
  }

  /** After the scan: the new waiting transactions' alerts, the tracked ones' fates, the state. Never throws. */
  async finish(delivery: DeliveryStage, runId: string): Promise<void> {
    try {
      const state = await this.state;
      const before = JSON.stringify(state);
      const listed = await this.list;
      const next: MempoolState = { ...state, tracked: state.tracked.filter((entry) => !this.mined.has(entry.txId)) };
      if ('failed' in listed) {
        this.deps.telemetry.log('warn', 'the API could not serve the mempool; no pending alerts this run (the block scan is not affected)', {
          runId,
          reason: listed.failed,
        });
      } else {
        await this.alertNew(listed.txs, next, delivery);
        next.read = afterRead(state.read, listed.plan.way, listed.txs, this.deps.clock.now());
        this.plan = listed.plan;
      }
      await followTracked({ deps: this.deps, api: this.api, network: this.network, delivery }, next, 'failed' in listed ? [] : listed.txs);
      if (JSON.stringify(next) !== before) await this.deps.state.writeRecord('mempool', next);
    } catch (error) {
      this.deps.telemetry.log('warn', 'pending alerts stopped for this run; the next run goes on from where they stopped', {
        runId,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * The listed transactions not seen before that a pending rule matches: alerted (claimed first, so one that
   * a crashed run already sent is not sent again), then tracked. The seen ids move on only once all went out.
   */
  private async alertNew(listed: MempoolTx[], next: MempoolState, delivery: DeliveryStage): Promise<void> {
    const seen = new Set(next.seen);
    const tracked = new Set(next.tracked.map((entry) => entry.txId));
    const matches = listed
      .filter((tx) => !seen.has(tx.txId) && !tracked.has(tx.txId) && !this.mined.has(tx.txId))
      .map((tx) => matchPending(tx, this.rules))
      .filter((match): match is PendingMatch => match !== null)
      // Oldest first, as they arrived: the list is newest first.
      .reverse();
    const alerts: PendingAlert[] = await buildPendingAlerts(this.api, matches, this.network, this.deps.telemetry);
    if (alerts.length > 0) await delivery.deliver(alerts);
    const now = this.deps.clock.now();
    for (const [index, match] of matches.entries()) next.tracked.push(trackedEntry(match, alerts[index]!, now));
    if (next.tracked.length > MEMPOOL_LIMITS.tracked) {
      const dropped = next.tracked.splice(0, next.tracked.length - MEMPOOL_LIMITS.tracked);
      this.deps.telemetry.log('warn', 'too many waiting transactions followed; the oldest are let go (their mined alerts still come)', {
        letGo: dropped.map((entry) => entry.txId),
      });
    }
    next.seen = [...new Set([...listed.map((tx) => tx.txId), ...next.seen])].slice(0, MEMPOOL_LIMITS.seen);
    const newest = Math.max(next.newest ?? 0, ...listed.map((tx) => tx.receivedAt));
    if (newest > 0) next.newest = newest;
  }
}

/** The new waiting transactions, read the way the plan chooses: the whole list when the API has no principal route. */
async function readWaiting(api: MempoolApi, rules: PendingRules, state: MempoolState, nowMs: number): Promise<{ txs: MempoolTx[]; plan: MempoolReadPlan }> {
  const options = { stopAt: new Set(state.seen), receivedFrom: state.newest ?? null, maxPages: state.seen.length === 0 ? 1 : MEMPOOL_LIMITS.maxPages };
  const principals = pendingPrincipals(rules);
  const plan = chooseMempoolRead(principals, state, nowMs);
  if (plan.way === 'principals' && principals) {
    const txs = api.readPrincipalsMempool ? await api.readPrincipalsMempool(principals, options) : null;
    if (txs) return { txs, plan };
    return { txs: await api.readMempool(options), plan: { ...plan, way: 'list', reason: 'the API has no principal mempool route' } };
  }
  return { txs: await api.readMempool(options), plan };
}

function trackedEntry(match: PendingMatch, alert: PendingAlert, now: number): TrackedPending {
  const what =
    match.kind === 'call'
      ? `${match.call.functionName} on ${match.call.contractId}`
      : `${formatStx(match.transfer.amount, 'short')} from ${match.tx.sender} to ${match.transfer.recipient}`;
  return {
    txId: match.tx.txId,
    pendingKey: alert.key,
    rule: match.meta.rule,
    severity: match.meta.severity,
    sender: match.tx.sender,
    nonce: match.tx.nonce,
    ...(match.kind === 'call' ? { contractId: match.call.contractId } : { address: match.address }),
    what,
    seenAt: now,
    // Read on the next run that does not list it (a 1-minute schedule: a minute on).
    nextCheckAt: now,
    checks: 0,
  };
}
