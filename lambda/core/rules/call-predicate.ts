// The one predicate of a `calls` rule, for a call mined in a block (contract-call.ts) and for one waiting in the
// mempool (mempool/pending-rules.ts) alike: both become a `CallCandidate`, and `callRuleFields` has a line for
// every field a calls rule is written with (rule-predicate.ts).
import type { Transaction } from '../domain';
import { strongestRule, type RuleMeta } from '../stages/rule-meta';
import type { CompiledCallRule, CompiledCallRules, ContractCallRule } from './contract-call-rules';
import { RULE_META_FIELDS, rulePredicate, type RuleFields } from './rule-predicate';

/** A call as a `calls` rule sees it, mined or waiting. */
export interface CallCandidate {
  contractId: string;
  functionName: string;
  sender: string;
  /** `success` or how it failed; null while the call waits in the mempool. */
  outcome: string | null;
}

export const callRuleFields = {
  contractId: 'lookup key',
  functions: (rule, call) => rule.functions === undefined || rule.functions.includes(call.functionName),
  from: (rule, call) => rule.from === undefined || rule.from.includes(call.sender),
  // A waiting call has no outcome yet: it meets a rule on any outcome, as it may still fail or succeed.
  status: (rule, call) => call.outcome === null || rule.status === 'any' || (rule.status === 'success') === (call.outcome === 'success'),
  pending: 'picks pending rules',
  ...RULE_META_FIELDS,
} as const satisfies RuleFields<ContractCallRule, CompiledCallRule, CallCandidate>;

export const meetsCallRule = rulePredicate<ContractCallRule, CompiledCallRule, CallCandidate>(callRuleFields);

/** The most severe rule on `call`'s contract that it meets, null when none: one alert a call however many match. */
export function strongestCallRule(rules: CompiledCallRules, call: CallCandidate): RuleMeta | null {
  const list = rules.get(call.contractId);
  return (list && strongestRule(list.filter((rule) => meetsCallRule(rule, call)).map((rule) => rule.meta))) ?? null;
}

/** A mined transaction as a calls rule sees it; null when it is no contract call. */
export function minedCall(tx: Transaction): CallCandidate | null {
  if (tx.txType !== 'contract_call' || tx.contractId === undefined || !tx.contractCall) return null;
  return { contractId: tx.contractId, functionName: tx.contractCall.functionName, sender: tx.sender, outcome: tx.txStatus };
}
