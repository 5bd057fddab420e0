// Deployment-status watch: alert on the first observation of each watched contract and on every change of
// (found, status, tx_id). The new status is stored only after its alert is delivered, so a crash in between
// recomputes the same alert key next run, which the delivery protocol then skips.
import type { ContractStatus, Network } from '../domain';
import type { ContractStatusAlert, ContractStatusSummaryAlert } from '../alert-kinds/alert';
import { withFirstSightsSummed } from './contract-status-sweep';
import { contractStatusKind } from '../alert-kinds/contract-status';
import type { DeliveryStage } from '../deliver/delivery-stage';
import type { ChainApi, StateStore, StoredContractStatus } from '../ports';
import { defaultRuleName, ruleMeta, type RuleMeta, type RuleCooldownMute } from '../stages/rule-meta';
import { isoTime } from '../stages/cooldowns-and-mutes';
import { settleAll } from '../settle';

export function statusChanged(previous: StoredContractStatus | undefined, current: ContractStatus): boolean {
  if (!previous) return true;
  return previous.found !== current.found || previous.status !== current.status || previous.txId !== current.txId;
}

export interface StatusWatchResult {
  checked: number;
  alerts: (ContractStatusAlert | ContractStatusSummaryAlert)[];
}

export async function watchContractStatuses(
  contractIds: readonly string[],
  network: Network,
  chain: ChainApi,
  state: StateStore,
  delivery: DeliveryStage,
  meta: RuleMeta = ruleMeta(undefined, defaultRuleName('contracts')),
  /** The time (Unix seconds) of the last block scanned, which `contractsRule.mutedUntil` is compared with (none before the first), and the clock's. */
  at: { blockTime: number | null; nowMs: number } = { blockTime: null, nowMs: 0 },
  /** The `contracts` rule's cooldown and mute (WatchRules.cooldownsAndMutes); only the mute applies to statuses. */
  cooldownMute?: RuleCooldownMute,
): Promise<StatusWatchResult> {
  if (contractIds.length === 0) return { checked: 0, alerts: [] };
  const [current, stored] = await settleAll([chain.getContractStatuses(contractIds), state.readContractStatuses(contractIds)]);
  const changes: { alert: ContractStatusAlert; next: StoredContractStatus }[] = [];
  for (const contractId of contractIds) {
    const now = current.get(contractId);
    if (!now) continue;
    const previous = stored.get(contractId);
    if (!statusChanged(previous, now)) {
      // Keep the block height fresh (a pending deploy gets one when mined) without alerting.
      if (previous && previous.blockHeight !== now.blockHeight) {
        await state.writeContractStatus({ ...previous, blockHeight: now.blockHeight });
      }
      continue;
    }
    changes.push({
      alert: contractStatusKind.build({ previous, current: now, meta }, network),
      next: {
        contractId,
        found: now.found,
        status: now.found ? now.status : null,
        txId: now.found ? now.txId : null,
        blockHeight: now.found ? now.blockHeight : null,
        changes: (previous?.changes ?? 0) + 1,
      },
    });
  }
  // One delivery for all changes; many first sights go out as one summary (contract-status-sweep.ts).
  const alerts = withFirstSightsSummed(
    changes.map((c) => c.alert),
    network,
    meta,
  );
  const mutedUntil = cooldownMute?.mutedUntil;
  let published: StatusWatchResult['alerts'] = [];
  if (mutedUntil !== undefined && at.blockTime !== null && at.blockTime < mutedUntil) {
    // Muted: recorded, never sent; the statuses are stored all the same, so the mute's end sends none of it late.
    const reason = `rule "${meta.rule}" is muted until ${isoTime(mutedUntil)} (block time)`;
    for (const alert of alerts) await state.recordHeldOrMuted(alert.key, at.nowMs, alert, 'muted', reason);
  } else {
    published = (await delivery.deliver(alerts)).published as StatusWatchResult['alerts'];
  }
  for (const change of changes) await state.writeContractStatus(change.next);
  return { checked: contractIds.length, alerts: published };
}
