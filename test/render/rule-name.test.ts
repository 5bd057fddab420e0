// A rule's name as a message shows it: a default name in words from the list that made it, never the config's
// JSON, its first principals whole and the rest counted, bounded; a name someone chose as it is.
import { describe, expect, it } from 'vitest';
import { ruleNameWords, RULE_WORDS_MAX } from '../../lambda/core/render/rule-name';
import { defaultCallRuleName } from '../../lambda/core/rules/contract-call-rules';
import { defaultLogRuleName } from '../../lambda/core/rules/contract-log-rules';
import { defaultTransferRuleName } from '../../lambda/core/rules/transfer-rules';
import { ALEX, ARKADIKO } from './alerts';

const VAULT = `${ARKADIKO}.arkadiko-vault`;

describe('ruleNameWords', () => {
  it("says a call rule's outcome, functions and callers", () => {
    const rule = defaultCallRuleName({ contractId: VAULT, functions: ['withdraw', 'deposit'], from: [ALEX], status: 'failed' } as never);
    expect(ruleNameWords(rule)).toBe(`failed calls to ${VAULT} (withdraw, deposit) from ${ALEX} (unnamed)`);
    expect(ruleNameWords(defaultCallRuleName({ contractId: VAULT, status: 'any' } as never))).toBe(`calls to ${VAULT} (unnamed)`);
  });

  it("says a log rule's conditions in words, anyOf and not included", () => {
    const rule = defaultLogRuleName({
      contractId: VAULT,
      contains: 'mint',
      where: { anyOf: [{ action: 'a' }, { amount: { lt: 5 } }], not: { user: { exists: true } } },
    } as never);
    expect(ruleNameWords(rule)).toBe(`logs of ${VAULT} containing "mint" where any of (action is "a"; amount < 5) and not (user is present) (unnamed)`);
  });

  it("says a transfer rule's asset, sides and memo", () => {
    const rule = defaultTransferRuleName({ asset: '*', to: [], from: [ALEX], memo: { eq: 'gm' } } as never);
    expect(ruleNameWords(rule)).toBe(`any asset transfers from ${ALEX} memo "gm" (unnamed)`);
  });

  it("says a balance rule's STX thresholds in STX", () => {
    expect(ruleNameWords(`balances:stx of ${ALEX} below 50000000 or above 1500000000`)).toBe(
      `spendable STX of ${ALEX} below 50 STX or above 1,500 STX (unnamed)`,
    );
  });

  it("names the whole lists and the watcher's own alerts", () => {
    expect(ruleNameWords('addresses')).toBe('STX arriving at the watched addresses (unnamed)');
    expect(ruleNameWords('contracts')).toBe('deployment status of the watched contracts (unnamed)');
    expect(ruleNameWords('watcher:deep_reorg')).toBe('the watcher itself');
  });

  it('is never longer than its bound, and leaves a chosen name as it is', () => {
    const many = Array.from({ length: 5 }, () => 'x'.repeat(500)).join(',');
    expect(ruleNameWords(`transfers:stx to ${many}`).length).toBeLessThanOrEqual(RULE_WORDS_MAX);
    expect(ruleNameWords('Treasury inflow')).toBe('Treasury inflow');
  });
});
