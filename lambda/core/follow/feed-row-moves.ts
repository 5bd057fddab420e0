// What a principal's feed row says about the assets it moved: the API's per-transaction balance changes (STX
// sent and received, the fee counted as sent) and which asset classes the transaction touched for it. From
// them, a transaction that moved nothing the rules watch for that principal needs no events read: its fee
// and a native transfer's own movement come from the transaction itself (token_transfer alerts from it).
import type { Transaction } from '../domain';
import type { WatchRules } from '../rules/rule-lists';

/** A principal's own movements in one transaction, as its feed row tells them. */
export interface PrincipalMoves {
  /** micro-STX the principal sent (its fee included when it paid one) and received. */
  stx: { sent: bigint; received: bigint };
  /** Whether fungible or non-fungible tokens moved to or from it; null when the row did not say. */
  ft: boolean | null;
  nft: boolean | null;
}

/** Which of a principal's movements any rule watches: STX (`addresses`, transfers rules on STX) and tokens. */
export interface WatchedAssets {
  stx: boolean;
  tokens: boolean;
}

export function watchedAssetsOf(rules: Pick<WatchRules, 'addresses' | 'transfers' | 'sbtcLifecycle'>, principal: string): WatchedAssets {
  const names = (asset: string) => (rules.transfers.get(asset) ?? []).some((rule) => rule.to.has(principal) || rule.from.has(principal));
  // The sBTC lifecycle's recipients and senders: a deposit's recipient is read from the sBTC mint beside its print.
  const sbtc = rules.sbtcLifecycle;
  const followedBySbtc = sbtc !== undefined && [...(sbtc.recipients ?? []), ...(sbtc.senders ?? [])].includes(principal);
  const tokens = followedBySbtc || [...rules.transfers.keys()].some((asset) => asset !== 'stx' && names(asset));
  return { stx: rules.addresses.principals.has(principal) || names('stx') || names('*'), tokens };
}

/**
 * True when the transaction may carry an asset event of `principal` that a rule watches, so its events must be
 * read: always when the row gave no balance changes, or the fee is unknown for the principal that paid it.
 */
export function mayMoveWatched(tx: Transaction, principal: string, moves: PrincipalMoves | undefined, watched: WatchedAssets): boolean {
  if (!moves) return watched.stx || watched.tokens;
  if (watched.tokens && (moves.ft !== false || moves.nft !== false)) return true;
  if (!watched.stx) return false;
  let { sent, received } = moves.stx;
  if ((tx.sponsor ?? tx.sender) === principal) {
    if (tx.fee === undefined) return true;
    sent -= BigInt(tx.fee);
  }
  const own = tx.tokenTransfer;
  if (own && tx.sender === principal) sent -= BigInt(own.amount);
  if (own && own.recipient === principal) received -= BigInt(own.amount);
  // Anything left, or less than nothing (a row that disagrees with the transaction), is read to be sure.
  return sent !== 0n || received !== 0n;
}
