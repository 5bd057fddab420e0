// An alert record as the state document keeps it, and as the claim machinery reads it (alert-claims.ts).
import type { StoredAlertRecord } from '../../core/ports';
import type { AlertRecordState } from '../../core/stages/cooldown-mute-state';

export interface AlertRecord {
  state: AlertRecordState;
  /** Why a parked alert could not be delivered; why a held or muted one was not sent. */
  reason?: string;
  claimedAt: number;
  /** The claim's id while pending (absent in files written before claim ids). */
  claimId?: string;
  sentAt?: number;
  alert?: unknown;
  /** epoch ms after which the record counts as absent (the DynamoDB TTL's twin) */
  expiresAt: number;
}

/** The record as the claim machinery sees it: its state, the claim while pending, the alert and the reason. */
export function stored(record: AlertRecord): StoredAlertRecord {
  return {
    state: record.state,
    ...(record.state === 'pending' ? { claim: { claimedAt: record.claimedAt, ...(record.claimId ? { claimId: record.claimId } : {}) } } : {}),
    ...(record.alert !== undefined ? { alert: structuredClone(record.alert) } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
  };
}
