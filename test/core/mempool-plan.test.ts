// Which way the pending rules read the mempool: the principals come from the compiled rules (a pending call
// rule's contract, a pending transfer rule's `from` and `to`), per principal only when that costs fewer requests
// than the pages the whole list took a run when last measured, and the measure is a list read right after a list
// read, taken again once ten minutes old and not rewritten while it stands.
import { describe, expect, it } from 'vitest';
import { afterRead, chooseMempoolRead, listPagesForPrincipals, MEASURE_KEPT_MS, pendingPrincipals } from '../../lambda/core/mempool/mempool-plan';
import type { MempoolState, MempoolTx } from '../../lambda/core/mempool/mempool-ports';
import { pendingRules, type PendingRules } from '../../lambda/core/mempool/pending-rules';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { config, OTHER, ROUTER, TOKEN, WATCHED } from './harness';

const NOW = 1_800_000_000_000;
const EXCHANGE = 'SP1E4JR39JX272K7DE5JV47VV7CXJBV5YBNVV25WF';

function rulesOf(overrides: Parameters<typeof config>[0]): PendingRules {
  return pendingRules(compileWatchRules(config({ addresses: [], contractLogs: [], ...overrides })))!;
}

const measured = (pages: number, at = NOW - 60_000): MempoolState => ({ seen: ['0x01'], tracked: [], read: { way: 'list', listPages: { pages, at } } });
const listed = (count: number): MempoolTx[] =>
  Array.from({ length: count }, (_, i) => ({ txId: `0x${i}`, type: 'token_transfer', sender: OTHER, nonce: i, fee: '1', receivedAt: i }));

describe('the principals the pending rules name', () => {
  it("are each pending call rule's contract and each pending transfer rule's senders and recipients, once, and no other rule's", () => {
    const rules = rulesOf({
      calls: [
        { contractId: TOKEN, status: 'any', pending: true },
        { contractId: ROUTER, status: 'any' },
      ],
      transfers: [
        { asset: 'stx', to: [EXCHANGE], from: [WATCHED], actions: ['transfer'], pending: true },
        { asset: '*', to: [WATCHED], from: [], actions: ['transfer'], pending: true },
        { asset: 'stx', to: [OTHER], from: [], actions: ['transfer'] },
      ],
    });
    expect(pendingPrincipals(rules)).toEqual([TOKEN, WATCHED, EXCHANGE]);
  });

  it('are none when a pending transfer rule names nobody: only the whole list can serve it', () => {
    const rules = rulesOf({ transfers: [{ asset: 'stx', to: [WATCHED], from: [], actions: ['transfer'], pending: true }] });
    const [rule] = rules.transfers.get('stx')!;
    expect(pendingPrincipals({ ...rules, transfers: new Map([['stx', [{ ...rule!, to: new Set<string>() }]]]) })).toBeNull();
  });
});

describe('the way a run reads the mempool', () => {
  it('reads per principal only when the principals are fewer than the pages the list took a run', () => {
    expect(chooseMempoolRead([TOKEN, WATCHED], measured(3), NOW)).toEqual({
      way: 'principals',
      principals: 2,
      reason: '2 principal routes cost less than the 3 pages the list took a run',
      estimate: { principals: 2, list: 3 },
    });
    expect(chooseMempoolRead([TOKEN, WATCHED], measured(2), NOW)).toEqual({
      way: 'list',
      principals: 2,
      reason: '2 principal routes cost no less than the 2 pages the list took a run',
      estimate: { principals: 2, list: 2 },
    });
    expect(chooseMempoolRead([TOKEN], measured(2), NOW)).toMatchObject({ way: 'principals' });
  });

  it('reads the list to measure it when nothing was measured, or the measure is older than ten minutes, and when a rule names nobody', () => {
    const measuring = { way: 'list', principals: 1, reason: 'measuring what the list costs a run', estimate: { principals: 1, list: null } };
    expect(chooseMempoolRead([TOKEN], { seen: [], tracked: [] }, NOW)).toEqual(measuring);
    expect(chooseMempoolRead([TOKEN], measured(3, NOW - MEASURE_KEPT_MS - 1), NOW)).toEqual(measuring);
    expect(chooseMempoolRead(null, measured(3), NOW)).toEqual({
      way: 'list',
      principals: 0,
      reason: 'a pending rule names no principal',
      estimate: { principals: null, list: 3 },
    });
  });

  it("turns to the principals' routes from the list pages the choice itself turns at, and never for as many principals as the list's most pages", () => {
    expect(listPagesForPrincipals([TOKEN])).toBe(2);
    expect(listPagesForPrincipals([TOKEN, WATCHED])).toBe(3);
    expect(listPagesForPrincipals([TOKEN, WATCHED, EXCHANGE])).toBeNull();
    expect(listPagesForPrincipals(null)).toBeNull();
  });
});

describe('what the state keeps of a read', () => {
  it("measures the list's pages only on a list read that follows a list read (after per-principal reads it walks back further)", () => {
    expect(afterRead(undefined, 'list', listed(120), NOW)).toEqual({ way: 'list' });
    expect(afterRead({ way: 'list' }, 'list', listed(120), NOW)).toEqual({ way: 'list', listPages: { pages: 3, at: NOW } });
    expect(afterRead({ way: 'list' }, 'list', listed(49), NOW)).toEqual({ way: 'list', listPages: { pages: 1, at: NOW } });
    expect(afterRead({ way: 'list' }, 'list', listed(400), NOW)).toEqual({ way: 'list', listPages: { pages: 3, at: NOW } });
    const kept = { pages: 3, at: NOW - MEASURE_KEPT_MS - 1 };
    expect(afterRead({ way: 'principals', listPages: kept }, 'list', listed(400), NOW)).toEqual({ way: 'list', listPages: kept });
    expect(afterRead({ way: 'list', listPages: kept }, 'principals', listed(1), NOW)).toEqual({ way: 'principals', listPages: kept });
  });

  it('keeps a standing measure as it was, so a quiet run does not rewrite the record for its time alone', () => {
    const standing = { pages: 1, at: NOW - 60_000 };
    expect(afterRead({ way: 'list', listPages: standing }, 'list', [], NOW)).toEqual({ way: 'list', listPages: standing });
    const old = { pages: 1, at: NOW - MEASURE_KEPT_MS - 1 };
    expect(afterRead({ way: 'list', listPages: old }, 'list', [], NOW)).toEqual({ way: 'list', listPages: { pages: 1, at: NOW } });
    expect(afterRead({ way: 'list', listPages: standing }, 'list', listed(60), NOW)).toEqual({ way: 'list', listPages: { pages: 2, at: NOW } });
  });
});
