// The claim machine: the rules that make each alert reach the publisher once across retries, crashes and
// overlapping runs, written once over any store's primitive conditional writes (AlertRecordStore).
//
// - absent, expired, retracted, or held or muted (never sent): claim it (a conditional create) → `claimed`;
// - sent → `sent`; parked → `parked`: never published again;
// - pending with our own claim id (a retried write that landed, its answer lost) → what we had tried;
// - pending, younger than the staleness limit → `in-flight`: another run may be publishing it now;
// - pending and older → take it over (a conditional replace of exactly that claim) → `stale`.
// A lost race reads what won from the refused write itself (DynamoDB's ALL_OLD), not from a second read.
import type { AlertRecordState } from '../stages/cooldown-mute-state';
import type { AlertClaim, AlertRecordStore, AlertRecordSummary, ClaimOutcome, StateStore } from '../ports';

/** A claim can lose its race at most this many times in one call before the alert is left to the next run. */
const MAX_CLAIM_ROUNDS = 3;

export type AlertClaimMethods = Pick<
  StateStore,
  'claimAlert' | 'markAlertSent' | 'releaseAlertClaim' | 'parkAlert' | 'markAlertRetracted' | 'getAlertRecord' | 'recordHeldOrMuted'
>;

/** Records that never went out: a claim may take their key (a later scan decided to send it). */
export const FREE_TO_CLAIM: readonly AlertRecordState[] = ['retracted', 'held', 'muted'];

export function createAlertClaims(records: AlertRecordStore, newClaimId: () => string = () => globalThis.crypto.randomUUID()): AlertClaimMethods {
  // The claim ids this store holds, so that releasing a claim cannot delete another run's takeover of it.
  const ownClaims = new Map<string, string>();

  async function claim(key: string, nowMs: number, staleAfterMs: number, mine: AlertClaim): Promise<ClaimOutcome> {
    // What this call last tried to write: if a retried write landed but its answer was lost, the record
    // found carries our claim id, and the outcome is what we had tried.
    let tried: 'claimed' | 'stale' = 'claimed';
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
      const created = await records.createClaim(key, mine, nowMs);
      if (created.written) return 'claimed';
      const record = created.found;
      if (!record || FREE_TO_CLAIM.includes(record.state)) {
        tried = 'claimed'; // gone, expired, retracted or never sent since the write was refused: the key is free again
        continue;
      }
      if (record.state === 'sent') return 'sent';
      if (record.state === 'parked') return 'parked';
      const held = record.claim ?? { claimedAt: 0 };
      if (held.claimId === mine.claimId) return tried;
      if (nowMs - held.claimedAt < staleAfterMs) return 'in-flight';
      tried = 'stale';
      const seen = { claimedAt: held.claimedAt, claimId: held.claimId ?? '' };
      if ((await records.replaceClaim(key, seen, mine, nowMs)).written) return 'stale';
      // Another run took it over or finished it first: the next round finds what it did.
    }
    return 'in-flight';
  }

  return {
    async claimAlert(key, nowMs, staleAfterMs) {
      const mine = { claimedAt: nowMs, claimId: newClaimId() };
      const outcome = await claim(key, nowMs, staleAfterMs, mine);
      if (outcome === 'claimed' || outcome === 'stale') ownClaims.set(key, mine.claimId);
      return outcome;
    },

    async markAlertSent(key, nowMs, alert) {
      await records.writeSent(key, nowMs, alert);
      ownClaims.delete(key);
    },

    async releaseAlertClaim(key) {
      try {
        await records.deleteClaim(key, ownClaims.get(key));
      } finally {
        ownClaims.delete(key);
      }
    },

    async parkAlert(key, nowMs, alert, reason) {
      await records.writeParked(key, nowMs, alert, reason);
      ownClaims.delete(key);
    },

    async markAlertRetracted(key, nowMs) {
      await records.writeRetracted(key, nowMs);
    },

    async recordHeldOrMuted(key, nowMs, alert, state, reason) {
      await records.writeHeldOrMuted(key, nowMs, alert, state, reason);
    },

    async getAlertRecord(key): Promise<AlertRecordSummary | null> {
      const record = await records.readAlertRecord(key);
      if (!record) return null;
      const summary: AlertRecordSummary = { key, state: record.state };
      if (record.alert !== undefined) summary.alert = record.alert;
      if (record.reason !== undefined) summary.reason = record.reason;
      return summary;
    },
  };
}
