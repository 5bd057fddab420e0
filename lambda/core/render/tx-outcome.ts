// How a transaction ended, in words a person reads: the chain's statuses (`abort_by_response`,
// `abort_by_post_condition`) and a Clarity result (`(err u102)`) are the developer's spelling of it.
import { LIMITS } from './chain-text';
import { sanitizeUntrusted } from './untrusted-text';

/** `(err u102)` as `err u102`: the outer parentheses say nothing to a reader. */
export function resultWords(resultRepr: string): string {
  const clean = sanitizeUntrusted(resultRepr, LIMITS.status);
  return /^\(.*\)$/.test(clean) ? clean.slice(1, -1) : clean;
}

/**
 * Why a transaction failed: `the contract refused: err u102` (it returned an error, so everything it did was
 * undone), `a post-condition stopped it` (it would have moved assets its sender did not allow), `the network
 * skipped it as problematic`; any other status as the chain gave it.
 */
export function failureWords(status: string, resultRepr: string | null): string {
  switch (status) {
    case 'abort_by_response':
      return resultRepr === null ? 'the contract returned an error' : `the contract refused: ${resultWords(resultRepr)}`;
    case 'abort_by_post_condition':
      return 'a post-condition stopped it (it would have moved assets its sender did not allow)';
    case 'problematic_skipped':
      return 'the network skipped it as problematic';
    default:
      return sanitizeUntrusted(status, LIMITS.status);
  }
}

/** `succeeded`, or `failed: ` and why. */
export function outcomeWords(status: string, resultRepr: string | null): string {
  return status === 'success' ? 'succeeded' : `failed: ${failureWords(status, resultRepr)}`;
}

/** The fewest words for an SMS: `ok true`, `refused: err u102`, `stopped by a post-condition`. */
export function shortOutcome(status: string, resultRepr: string | null): string | null {
  if (status === 'success') return resultRepr === null ? null : resultWords(resultRepr);
  if (status === 'abort_by_response') return resultRepr === null ? 'refused' : `refused: ${resultWords(resultRepr)}`;
  if (status === 'abort_by_post_condition') return 'stopped by a post-condition';
  return failureWords(status, resultRepr);
}

/** Why a deploy failed, short enough for a subject line. */
export function deployFailureWords(status: string): string {
  if (status === 'abort_by_response') return 'its code returned an error';
  if (status === 'abort_by_post_condition') return 'a post-condition stopped it';
  return failureWords(status, null);
}
