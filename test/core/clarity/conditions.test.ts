import { Cl, serializeCV, type ClarityValue } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { compileWhere, conditionProblems, type WhereSpec } from '../../../lambda/core/clarity/conditions';
import { decodeClarity } from '../../../lambda/core/clarity/decode';
import { logUnits } from '../../../lambda/core/clarity/condition-amounts';
import { whereWords } from '../../../lambda/core/clarity/condition-words';

const ALICE = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const BOB = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';

/** A vault's withdrawal print, with the hyphenated keys Clarity code uses. */
const withdrawal = Cl.tuple({
  action: Cl.stringAscii('withdraw'),
  amount: Cl.uint(2_500_000_000n),
  user: Cl.standardPrincipal(ALICE),
  'fee-rate': Cl.int(-3),
  memo: Cl.bufferFromHex('cafe0102'),
  tags: Cl.list([Cl.stringAscii('vip'), Cl.stringAscii('new')]),
  details: Cl.tuple({ 'btc-amount': Cl.uint(100_000_000n), recipient: Cl.some(Cl.standardPrincipal(BOB)) }),
  refund: Cl.none(),
  paused: Cl.bool(false),
  result: Cl.ok(Cl.uint(1)),
});

function holds(where: WhereSpec, value: ClarityValue = withdrawal): boolean {
  expect(conditionProblems(where)).toEqual([]);
  return compileWhere(where)(decodeClarity(`0x${serializeCV(value)}`));
}

describe('where conditions on a decoded value', () => {
  it('treats a bare value as equality: strings, principals, integers by decimal value, booleans, none', () => {
    expect(holds({ action: 'withdraw' })).toBe(true);
    expect(holds({ action: 'deposit' })).toBe(false);
    expect(holds({ user: ALICE })).toBe(true);
    expect(holds({ amount: 2_500_000_000 })).toBe(true);
    expect(holds({ amount: '2500000000' })).toBe(true);
    expect(holds({ amount: 2_500_000_001 })).toBe(false);
    expect(holds({ paused: false })).toBe(true);
    expect(holds({ refund: null })).toBe(true);
    expect(holds({ memo: '0xCAFE0102' })).toBe(true);
  });

  it('holds only when every condition of an object holds (AND)', () => {
    expect(holds({ action: 'withdraw', user: ALICE })).toBe(true);
    expect(holds({ action: 'withdraw', user: BOB })).toBe(false);
  });

  it('walks hyphenated keys, nested tuples, optionals, responses and list indexes', () => {
    expect(holds({ 'fee-rate': -3 })).toBe(true);
    expect(holds({ 'details.btc-amount': { gte: '100000000' } })).toBe(true);
    expect(holds({ 'details.recipient': BOB })).toBe(true);
    expect(holds({ 'tags.0': 'vip', 'tags.1': 'new' })).toBe(true);
    expect(holds({ 'tags.2': { exists: true } })).toBe(false);
    expect(holds({ 'result.ok': 1 })).toBe(true);
    expect(holds({ 'result.err': { exists: true } })).toBe(false);
  });

  it('takes "$" as the whole value, for a print of a plain string or number', () => {
    expect(holds({ $: 'hello' }, Cl.stringAscii('hello'))).toBe(true);
    expect(holds({ $: { gt: 10 } }, Cl.uint(11))).toBe(true);
    expect(holds({ $: { gt: 10 } }, Cl.uint(10))).toBe(false);
  });

  it.each([
    ['eq', { action: { eq: 'withdraw' } }, { action: { eq: 'deposit' } }],
    ['ne', { action: { ne: 'deposit' } }, { action: { ne: 'withdraw' } }],
    ['in', { user: { in: [BOB, ALICE] } }, { user: { in: [BOB] } }],
    ['gt', { amount: { gt: '2499999999' } }, { amount: { gt: '2500000000' } }],
    ['gte', { amount: { gte: 2_500_000_000 } }, { amount: { gte: '2500000001' } }],
    ['lt', { 'fee-rate': { lt: 0 } }, { 'fee-rate': { lt: -3 } }],
    ['lte', { 'fee-rate': { lte: -3 } }, { 'fee-rate': { lte: '-4' } }],
    ['contains (a string)', { action: { contains: 'draw' } }, { action: { contains: 'deposit' } }],
    ['contains (a list item)', { tags: { contains: 'vip' } }, { tags: { contains: 'vi' } }],
    ['contains (buffer bytes)', { memo: { contains: '0x0102' } }, { memo: { contains: 'af' } }],
    ['startsWith (a string)', { user: { startsWith: 'SP2C' } }, { user: { startsWith: 'SP3' } }],
    ['startsWith (a buffer)', { memo: { startsWith: '0xcafe' } }, { memo: { startsWith: '0x0102' } }],
    ['exists', { refund: { exists: true }, missing: { exists: false } }, { missing: { exists: true } }],
  ] as const)('operator %s: holds and fails as it should', (_op, yes, no) => {
    expect(holds(yes as WhereSpec)).toBe(true);
    expect(holds(no as WhereSpec)).toBe(false);
  });

  it('finds a number in a list of integers by its value, written bare or in quotes', () => {
    const ids = Cl.tuple({ ids: Cl.list([Cl.uint(7), Cl.uint(42), Cl.uint(2n ** 70n)]) });
    expect(holds({ ids: { contains: 42 } }, ids)).toBe(true);
    expect(holds({ ids: { contains: '42' } }, ids)).toBe(true);
    expect(holds({ ids: { contains: '1180591620717411303424' } }, ids)).toBe(true);
    expect(holds({ ids: { contains: 4 } }, ids)).toBe(false);
    expect(holds({ ids: { contains: 42 } }, Cl.tuple({ ids: Cl.stringAscii('id 42') }))).toBe(false);
  });

  it('compares a uint with an amount written in its unit, scaled exactly', () => {
    const units = logUnits({ decimals: 6, symbol: 'DIKO' });
    const matches = (where: WhereSpec) => {
      expect(conditionProblems(where, [], units)).toEqual([]);
      return compileWhere(where, units)(decodeClarity(`0x${serializeCV(withdrawal)}`));
    };
    expect(matches({ amount: { gte: '2,500 STX' } })).toBe(true);
    expect(matches({ amount: { gt: '2,500 STX' } })).toBe(false);
    expect(matches({ amount: { lte: '25 sBTC' } })).toBe(true);
    expect(matches({ amount: { lt: '25 sBTC' } })).toBe(false);
    expect(matches({ amount: { gte: '2500.000001 DIKO' } })).toBe(false);
    expect(matches({ 'details.btc-amount': { gte: '1 sBTC', lt: '100,000,001 sats' } })).toBe(true);
  });

  it('compares integers as big integers, past what a JSON number holds', () => {
    const huge = Cl.tuple({ amount: Cl.uint(2n ** 128n - 1n) });
    expect(holds({ amount: { gt: '340282366920938463463374607431768211454' } }, huge)).toBe(true);
    expect(holds({ amount: { lt: '340282366920938463463374607431768211455' } }, huge)).toBe(false);
    expect(holds({ amount: '340282366920938463463374607431768211455' }, huge)).toBe(true);
  });

  it('combines anyOf (one of them holds) and not (negates)', () => {
    expect(holds({ anyOf: [{ action: 'deposit' }, { amount: { gte: 1000 } }] })).toBe(true);
    expect(holds({ anyOf: [{ action: 'deposit' }, { user: BOB }] })).toBe(false);
    expect(holds({ not: { user: BOB } })).toBe(true);
    expect(holds({ not: { action: 'withdraw' } })).toBe(false);
    expect(holds({ action: 'withdraw', not: { anyOf: [{ user: BOB }, { paused: true }] } })).toBe(true);
  });

  it('does not match a value of the wrong type or a missing path, whatever the operator', () => {
    expect(holds({ action: { gte: 1 } })).toBe(false);
    expect(holds({ amount: 'withdraw' })).toBe(false);
    expect(holds({ amount: { contains: '25' } })).toBe(false);
    expect(holds({ user: { gt: 0 } })).toBe(false);
    expect(holds({ paused: 'false' })).toBe(false);
    expect(holds({ 'action.inner': 'x' })).toBe(false);
    expect(holds({ nowhere: { ne: 'x' } })).toBe(false);
    expect(holds({ 'tags.x': 'vip' })).toBe(false);
    expect(holds({ action: 'withdraw' }, Cl.stringAscii('withdraw'))).toBe(false);
  });
});

describe('where conditions in the config', () => {
  it('reports each mistake at its path inside where', () => {
    expect(
      conditionProblems({
        amount: { gte: 'lots' },
        action: { matches: 'with.*' },
        'a..b': 1,
        'user ': 'x',
        anyOf: [{ ok: 1 }, 'withdraw'],
        not: {},
        tags: ['a'],
        memo: { in: [] },
        nested: { exists: 'yes' },
        size: { lt: 1.5 },
        x: { startsWith: 5 },
        y: { contains: 1.5 },
      }),
    ).toEqual([
      { path: ['amount', 'gte'], message: expect.stringMatching(/"gte" compares integers/) },
      {
        path: ['action', 'matches'],
        message: expect.stringMatching(/unknown operator "matches": use one of eq, ne, in, gt, gte, lt, lte, contains, startsWith, exists/),
      },
      { path: ['a..b'], message: expect.stringMatching(/is not a path/) },
      { path: ['user '], message: expect.stringMatching(/is not a path/) },
      { path: ['anyOf', 1], message: expect.stringMatching(/must be an object of conditions/) },
      { path: ['not'], message: expect.stringMatching(/must be an object of conditions/) },
      { path: ['tags'], message: expect.stringMatching(/write \{"in": \[...\]\}/) },
      { path: ['memo', 'in'], message: expect.stringMatching(/non-empty list/) },
      { path: ['nested', 'exists'], message: '"exists" needs true or false' },
      { path: ['size', 'lt'], message: expect.stringMatching(/"lt" compares integers/) },
      { path: ['x', 'startsWith'], message: '"startsWith" compares text: write the number in quotes, {"startsWith": "5"}' },
      { path: ['y', 'contains'], message: expect.stringMatching(/^"contains" needs a string \(or, to find a list item, a string, a whole number/) },
    ]);
  });

  it('accepts the worked examples of docs/rules-and-conditions.md', () => {
    expect(conditionProblems({ action: 'withdraw', amount: { gte: '1000000000' }, user: { in: [ALICE, BOB] } })).toEqual([]);
    expect(conditionProblems({ topic: 'withdrawal-create', amount: { gte: 100000000 } })).toEqual([]);
    expect(conditionProblems({ $: { startsWith: 'err' } })).toEqual([]);
  });
});

describe('where conditions in words', () => {
  it('says an amount with its unit as written, unquoted, and a bare bound grouped', () => {
    expect(whereWords({ event: 'deposit', amount: { gte: '1 STX' } })).toBe('event is "deposit" and amount ≥ 1 STX');
    expect(whereWords({ amount: { lt: '0.5 sBTC', gt: '1000000' } })).toBe('amount < 0.5 sBTC and amount > 1,000,000');
  });
});
