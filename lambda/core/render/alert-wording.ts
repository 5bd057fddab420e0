// Words shared by the subject, the email and the SMS, so that the three say the same thing.
import type { ContractStatusAlert, DeepReorgAlert, Network, RetractionAlert } from '../domain';
import { LIMITS } from './chain-text';
import { sanitizeUntrusted } from './untrusted-text';

export function brand(network: Network): string {
  return network === 'mainnet' ? 'stacks-watch' : `stacks-watch ${network}`;
}

const FAILED = new Set(['abort_by_response', 'abort_by_post_condition', 'problematic_skipped']);

/** What a deployment status means, e.g. `deployed: success`, `deploy failed: abort_by_response`. */
export function deployPhrase(found: boolean, status: string | null): string {
  if (!found) return 'not found';
  const clean = sanitizeUntrusted(status ?? 'unknown', LIMITS.status);
  if (status === 'success') return 'deployed: success';
  if (status === 'pending') return 'deploy pending';
  if (status !== null && FAILED.has(status)) return `deploy failed: ${clean}`;
  return `status: ${clean}`;
}

export function statusPhrase(alert: ContractStatusAlert): string {
  if (!alert.found && alert.previous?.found) return 'no longer found';
  return deployPhrase(alert.found, alert.status);
}

export function previousPhrase(alert: ContractStatusAlert): string {
  return alert.previous ? deployPhrase(alert.previous.found, alert.previous.status) : 'not watched before';
}

export function retractedLabel(alert: RetractionAlert): string {
  return alert.retracted_type === 'token_transfer' ? 'STX transfer' : 'contract log';
}

/** The lowest height the watcher still remembered: alerts below it cannot be checked after a deep reorg. */
export function windowFloor(alert: DeepReorgAlert): number {
  return Math.max(0, alert.cursor_height - alert.window + 1);
}
