import type { AssetAction } from '../domain';
import type { RuleMetaConfig } from '../rule-meta';

/** A rule on asset movements: see the README's "transfers". */
export interface TransferRule extends RuleMetaConfig {
  /** `stx`, an asset id `ADDRESS.contract::token`, or `*` for any asset. */
  asset: string;
  /** Recipients to watch. */
  to: string[];
  /** Senders to watch (outflows). */
  from: string[];
  /** Base units (micro-STX for stx), a decimal string; NFT movements never match a rule that has one. */
  minAmount?: string;
  actions: AssetAction[];
  /** How the token's amounts read: its decimals and symbol, when the rule gives them. */
  decimals?: number;
  symbol?: string;
}
