// The kinds found in blocks, keyed by alert type. Apart from the full registry (registry.ts) because
// retractions need these without depending on themselves.
import type { ChainAlert } from '../domain';
import { contractCallKind } from './contract-call';
import { contractLogKind } from './contract-log';
import type { ChainKind } from './kind';
import { ftTransferKind } from './ft-transfer';
import { nftTransferKind } from './nft-transfer';
import { stxTransferKind } from './stx-transfer';
import { tokenTransferKind } from './token-transfer';

export type ChainAlertType = ChainAlert['type'];

export const chainKinds = {
  token_transfer: tokenTransferKind,
  contract_log: contractLogKind,
  contract_call: contractCallKind,
  stx_transfer: stxTransferKind,
  ft_transfer: ftTransferKind,
  nft_transfer: nftTransferKind,
} satisfies { [T in ChainAlertType]: ChainKind<Extract<ChainAlert, { type: T }>> };

/** The kind of a chain alert, typed for the alert at hand (TypeScript cannot narrow an indexed union itself). */
export function chainKindOf<A extends ChainAlert>(alert: A): ChainKind<A> {
  return chainKinds[alert.type as ChainAlertType] as unknown as ChainKind<A>;
}

export const chainKindList: readonly ChainKind<ChainAlert>[] = Object.values(chainKinds) as unknown as ChainKind<ChainAlert>[];

export function isChainAlertType(type: unknown): type is ChainAlertType {
  return typeof type === 'string' && Object.hasOwn(chainKinds, type);
}
