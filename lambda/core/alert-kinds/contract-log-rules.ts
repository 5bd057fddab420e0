import type { WhereSpec } from '../clarity/conditions';
import type { RuleMetaConfig } from '../rule-meta';

export interface ContractLogRule extends RuleMetaConfig {
  contractId: string;
  /** Optional substring of the log's value.repr. */
  contains?: string;
  /** Optional conditions on the decoded value (lambda/core/clarity/conditions.ts); checked by the config. */
  where?: WhereSpec;
}
