// A rule list matched both mined and pending (its rules take `"pending"`) gives a waiting transaction the
// verdict the same transaction gets mined: a waiting one has no outcome yet, so it matches a rule when the
// mined transaction matches it with some outcome. Every field of the list's schema gets rules that set it,
// so a field one matcher ignores shows up as a different verdict.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { compileWatchRules, ruleLists } from '../../../lambda/core/rules/rule-lists';
import { LIST_RULE_KEYS } from '../../../lambda/core/watch-config/rule-meta-schema';
import { blockAlerts } from '../../../lambda/core/match/block-alerts';
import { callRuleFields } from '../../../lambda/core/rules/call-predicate';
import { transferRuleFields } from '../../../lambda/core/rules/transfer-predicate';
import { filterFields, type RuleFields } from '../../../lambda/core/rules/rule-predicate';
import { matchPending, pendingRules } from '../../../lambda/core/mempool/pending-rules';
import type { MempoolTx } from '../../../lambda/core/mempool/mempool-ports';
import type { Block, Transaction } from '../../../lambda/core/domain';
import { OTHER, ROUTER, TOKEN, WATCHED } from '../harness';

const THIRD = 'SP000000000000000000002Q6VF78';
const TX_ID = `0x${'ab'.repeat(32)}`;
/** `INV-42`, zero-padded to the 34 bytes a transfer carries. */
const MEMO = `0x${Buffer.from('INV-42').toString('hex').padEnd(68, '0')}`;
const OUTCOMES = ['success', 'abort_by_response'] as const;

interface ParityCase {
  /** The smallest rule the variants change. */
  base: Record<string, unknown>;
  /** By schema field: rules (as overrides of `base`) that set it, matching the transaction or not. */
  variants: Record<string, Record<string, unknown>[]>;
  waiting: MempoolTx;
  mined: (outcome: (typeof OUTCOMES)[number]) => Transaction;
  /** The list's predicate table: its tested fields must each decide a verdict here. */
  predicate: RuleFields<Record<string, unknown>, never, never>;
}

const cases: Record<string, ParityCase> = {
  calls: {
    base: { contractId: ROUTER },
    variants: {
      contractId: [{ contractId: ROUTER }, { contractId: TOKEN }],
      functions: [{ functions: ['set-owner'] }, { functions: ['deposit'] }, { functions: ['deposit', 'set-owner'] }],
      from: [{ from: [WATCHED] }, { from: [OTHER] }, { from: [OTHER, WATCHED] }],
      status: [{ status: 'success' }, { status: 'failed' }, { status: 'any' }],
    },
    waiting: {
      txId: TX_ID,
      type: 'contract_call',
      sender: WATCHED,
      nonce: 7,
      fee: '3000',
      receivedAt: 1_750_000_000,
      contractCall: { contractId: ROUTER, functionName: 'set-owner' },
    },
    mined: (outcome) => ({
      txId: TX_ID,
      txIndex: 0,
      txType: 'contract_call',
      txStatus: outcome,
      sender: WATCHED,
      eventCount: 0,
      contractId: ROUTER,
      contractCall: { functionName: 'set-owner', args: [], resultRepr: outcome === 'success' ? '(ok true)' : '(err u1)' },
    }),
    predicate: callRuleFields,
  },
  transfers: {
    base: { asset: 'stx', to: [WATCHED] },
    variants: {
      asset: [{ asset: 'stx' }, { asset: '*' }],
      to: [{ to: [WATCHED] }, { to: [THIRD] }, { to: [OTHER] }],
      from: [
        { to: undefined, from: [OTHER] },
        { to: undefined, from: [THIRD] },
        { to: [THIRD], from: [OTHER] },
      ],
      minAmount: [{ minAmount: '5 STX' }, { minAmount: '5.000001 STX' }, { minAmount: '5000000' }, { minAmount: '5000001' }],
      actions: [{ actions: ['transfer'] }, { actions: ['mint', 'burn'] }],
      memo: [
        { memo: { eq: 'INV-42' } },
        { memo: { eq: 'INV-43' } },
        { memo: { startsWith: 'INV' } },
        { memo: { exists: false } },
        { memo: { eq: MEMO.slice(0, 14) } },
      ],
      decimals: [
        { asset: '*', decimals: 6 },
        { asset: '*', decimals: 6, minAmount: '6000000' },
      ],
      symbol: [
        { asset: '*', symbol: 'STX' },
        { asset: '*', symbol: 'STX', minAmount: '6000000' },
      ],
    },
    waiting: {
      txId: TX_ID,
      type: 'token_transfer',
      sender: OTHER,
      nonce: 7,
      fee: '3000',
      receivedAt: 1_750_000_000,
      tokenTransfer: { recipient: WATCHED, amount: '5000000', memo: MEMO },
    },
    mined: (outcome) => ({
      txId: TX_ID,
      txIndex: 0,
      txType: 'token_transfer',
      txStatus: outcome,
      sender: OTHER,
      eventCount: 1,
      tokenTransfer: { recipient: WATCHED, amount: '5000000', memo: MEMO },
    }),
    predicate: transferRuleFields,
  },
};

/** The lists matched both mined and pending: those whose rules take `pending`, from the registry. */
const pendingLists = ruleLists.filter((list) => list.entryKeys.includes('pending'));

function compiled(list: string, rule: Record<string, unknown>) {
  const parsed = parseWatchConfig({ network: 'mainnet', [list]: [{ ...rule, pending: true }] });
  if (!parsed.ok) throw new Error(`${JSON.stringify(rule)}: ${JSON.stringify(parsed.problems)}`);
  return compileWatchRules(parsed.config);
}

function block(tx: Transaction): Block {
  const header = { height: 100, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1_750_000_100, txCount: 1 };
  return { header, transactions: [tx] } as Block;
}

/** The rule each matcher alerts the transaction under (null: no alert): mined with each outcome, and waiting. */
function verdicts(list: string, parity: ParityCase, rule: Record<string, unknown>) {
  const rules = compiled(list, rule);
  const mined = OUTCOMES.map((outcome) =>
    blockAlerts(block(parity.mined(outcome)), new Map(), rules, 'mainnet').find((a) => 'tx_id' in a && a.tx_id === TX_ID),
  );
  const pending = pendingRules(rules);
  const waiting = pending && matchPending(parity.waiting, pending);
  return { mined: mined.map((alert) => alert?.rule ?? null), waiting: waiting?.meta.rule ?? null };
}

describe('a rule list matched mined and pending', () => {
  it('is one of the lists these cases cover (every list whose rules take "pending")', () => {
    expect(pendingLists.map((list) => list.name).sort()).toEqual(Object.keys(cases).sort());
  });

  describe.each(pendingLists.map((list) => [list.name, list] as const))('%s', (name, list) => {
    const parity = cases[name]!;

    it('has rules setting every field of its schema but the rule metadata and "pending"', () => {
      const fields = list.entryKeys.filter((key) => !LIST_RULE_KEYS.includes(key) && key !== 'pending');
      expect(Object.keys(parity.variants).sort()).toEqual([...fields].sort());
    });

    it.each(Object.entries(parity.variants).flatMap(([field, rules]) => rules.map((rule) => [field, JSON.stringify(rule), rule] as const)))(
      'gives a waiting transaction the verdict of the same one mined, on %s: %s',
      (_field, _text, override) => {
        const { mined, waiting } = verdicts(name, parity, { ...parity.base, ...override });
        expect(waiting).toBe(mined.find((rule) => rule !== null) ?? null);
      },
    );

    it('has, for every field its predicate tests, a rule the transaction meets and one it does not (mined, with the same outcome)', () => {
      for (const field of filterFields(parity.predicate)) {
        const mined = (parity.variants[field] ?? []).map((rule) => verdicts(name, parity, { ...parity.base, ...rule }).mined);
        const decides = OUTCOMES.some((_, outcome) => new Set(mined.map((rules) => rules[outcome] !== null)).size === 2);
        expect(decides, `${field} decides no verdict`).toBe(true);
      }
    });
  });
});
