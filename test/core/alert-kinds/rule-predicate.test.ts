// The predicate tables of the lists matched mined and pending (call-predicate.ts, transfer-predicate.ts) have a
// line for every field their rules are written with: a field nobody tests does not compile, and the tables
// name every key the schema accepts.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { callRuleFields, type CallCandidate } from '../../../lambda/core/rules/call-predicate';
import { callsList, type CompiledCallRule, type ContractCallRule } from '../../../lambda/core/rules/contract-call-rules';
import { rulePredicate, type RuleFields } from '../../../lambda/core/rules/rule-predicate';
import { transferRuleFields, type TransferCandidate } from '../../../lambda/core/rules/transfer-predicate';
import { transfersList, type CompiledTransferRule, type TransferRule } from '../../../lambda/core/rules/transfer-rules';

describe('a predicate table', () => {
  it('has a line for every key the calls schema accepts', () => {
    expectTypeOf<keyof typeof callRuleFields>().toEqualTypeOf<keyof ContractCallRule>();
    expect(Object.keys(callRuleFields).sort()).toEqual(callsList.entryKeys.filter((key) => key !== '$comment').sort());
  });

  it('has a line for every key the transfers schema accepts', () => {
    expectTypeOf<keyof typeof transferRuleFields>().toEqualTypeOf<keyof TransferRule>();
    expect(Object.keys(transferRuleFields)).toEqual(expect.arrayContaining(transfersList.entryKeys.filter((key) => key !== '$comment')));
  });

  it('does not compile when a field of the rules has no line', () => {
    const { from: _untested, ...withoutFrom } = callRuleFields;
    // @ts-expect-error `from` has no line: a calls filter the matchers would ignore
    const calls: RuleFields<ContractCallRule, CompiledCallRule, CallCandidate> = withoutFrom;
    const { memo: _alsoUntested, ...withoutMemo } = transferRuleFields;
    // @ts-expect-error `memo` has no line: a transfers filter the matchers would ignore
    const transfers: RuleFields<TransferRule, CompiledTransferRule, TransferCandidate> = withoutMemo;
    expect([calls, transfers].map((table) => Object.keys(table))).not.toContainEqual(expect.arrayContaining(['from', 'memo']));
  });

  it('does not compile once the schema gives the rules a new field, until the field gets a line', () => {
    type GrownCallRule = ContractCallRule & { args?: string[] };
    // @ts-expect-error `args` is a field of the rules without a line in the table
    const grown: RuleFields<GrownCallRule, CompiledCallRule, CallCandidate> = callRuleFields;
    const covered: RuleFields<GrownCallRule, CompiledCallRule, CallCandidate> = { ...callRuleFields, args: 'not a filter' };
    expect(Object.keys(covered).length).toBe(Object.keys(grown).length + 1);
  });

  it('lets a rule through only when every tested line does', () => {
    const meets = rulePredicate<{ a?: number; b?: number; c?: string }, { a: number; b: number }, number>({
      a: (rule, value) => value >= rule.a,
      b: (rule, value) => value <= rule.b,
      c: 'not a filter',
    });
    expect([meets({ a: 1, b: 3 }, 2), meets({ a: 1, b: 3 }, 0), meets({ a: 1, b: 3 }, 4)]).toEqual([true, false, false]);
  });
});
