import type { RuleMetaConfig } from '../rule-meta';

/** Which transaction outcomes a `calls` rule alerts on: `failed` is any abort. */
export type CallStatusFilter = 'success' | 'failed' | 'any';

export interface ContractCallRule extends RuleMetaConfig {
  contractId: string;
  /** Only calls of these functions; every function when absent. */
  functions?: string[];
  /** Only calls sent by these principals; any sender when absent. */
  from?: string[];
  status: CallStatusFilter;
}
