// The kinds found in blocks, keyed by alert type: the one list a new chain kind joins. The chain alert union
// derives from it, so a kind is one module plus one line here. Apart from the full registry (registry.ts)
// because retractions need these without depending on themselves.
import { balanceThresholdKind } from './balance-threshold';
import { contractCallKind } from './contract-call';
import { contractLogKind } from './contract-log';
import { cooldownSummaryKind } from './cooldown-summary';
import type { AnyChainAlert, ChainKind } from './kind';
import { ftTransferKind } from './ft-transfer';
import { nftTransferKind } from './nft-transfer';
import { sbtcSettlementKind } from './sbtc-settlement';
import { stxTransferKind } from './stx-transfer';
import { tokenTransferKind } from './token-transfer';
import { windowThresholdKind } from './window-threshold';

/** The alert a kind raises, read off its wording (each kind is written `satisfies ChainKind<ItsAlert>`). */
export type AlertOf<K> = K extends { subject(alert: infer A): string } ? A : never;

/** Each entry is a chain kind of the alert type it is filed under. */
export function chainKindMap<M extends { [T in keyof M]: ChainKind<AlertOf<M[T]> & AnyChainAlert> & { type: T } }>(kinds: M): M {
  return kinds;
}

export const chainKinds = chainKindMap({
  token_transfer: tokenTransferKind,
  contract_log: contractLogKind,
  contract_call: contractCallKind,
  stx_transfer: stxTransferKind,
  ft_transfer: ftTransferKind,
  nft_transfer: nftTransferKind,
  window_threshold: windowThresholdKind,
  balance_threshold: balanceThresholdKind,
  cooldown_summary: cooldownSummaryKind,
  sbtc_settlement: sbtcSettlementKind,
});

export type ChainAlertType = keyof typeof chainKinds;
/** Alerts found in blocks: they carry a transaction and block, and a reorg can retract them. */
export type ChainAlert = { [T in ChainAlertType]: AlertOf<(typeof chainKinds)[T]> }[ChainAlertType];

/** The kind of a chain alert, typed for the alert at hand (TypeScript cannot narrow an indexed union itself). */
export function chainKindOf<A extends ChainAlert>(alert: A): ChainKind<A> {
  return chainKinds[alert.type as ChainAlertType] as unknown as ChainKind<A>;
}

export const chainKindList: readonly ChainKind<ChainAlert>[] = Object.values(chainKinds) as unknown as ChainKind<ChainAlert>[];

export function isChainAlertType(type: unknown): type is ChainAlertType {
  return typeof type === 'string' && Object.hasOwn(chainKinds, type);
}
