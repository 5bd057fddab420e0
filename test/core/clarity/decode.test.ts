import { Cl, serializeCV, type ClarityValue } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { ClarityDecodeError, clarityToJson, decodeClarity } from '../../../lambda/core/clarity/decode';
import { REAL_VALUES } from './real-values';

const SENDER = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const json = (cv: ClarityValue) => clarityToJson(decodeClarity(`0x${serializeCV(cv)}`));

describe('the Clarity value decoder', () => {
  it.each(REAL_VALUES)('decodes a real value from the API: $what', ({ hex, json: expected }) => {
    expect(clarityToJson(decodeClarity(hex))).toEqual(expected);
  });

  it.each([
    ['int', Cl.int(-42), '-42'],
    ['uint', Cl.uint(7), '7'],
    ['the largest uint, beyond what a JSON number holds', Cl.uint(2n ** 128n - 1n), '340282366920938463463374607431768211455'],
    ['the smallest int', Cl.int(-(2n ** 127n)), '-170141183460469231731687303715884105728'],
    ['the largest int', Cl.int(2n ** 127n - 1n), '170141183460469231731687303715884105727'],
    ['true', Cl.bool(true), true],
    ['false', Cl.bool(false), false],
    ['a buffer', Cl.bufferFromHex('deadbeef'), '0xdeadbeef'],
    ['an empty buffer', Cl.bufferFromHex(''), '0x'],
    ['a standard principal', Cl.standardPrincipal(SENDER), SENDER],
    ['a contract principal', Cl.contractPrincipal(SENDER, 'arkadiko-token'), `${SENDER}.arkadiko-token`],
    ['a testnet principal', Cl.standardPrincipal('ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC'), 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC'],
    ['string-ascii', Cl.stringAscii('withdraw'), 'withdraw'],
    ['string-utf8 beyond ASCII', Cl.stringUtf8('café ₿ 🚀'), 'café ₿ 🚀'],
    ['none', Cl.none(), null],
    ['(some x) as x', Cl.some(Cl.uint(5)), '5'],
    ['(ok x)', Cl.ok(Cl.uint(1)), { ok: '1' }],
    ['(err x)', Cl.error(Cl.uint(102)), { err: '102' }],
    ['a list', Cl.list([Cl.uint(1), Cl.uint(2)]), ['1', '2']],
    ['an empty list', Cl.list([]), []],
  ] as const)('decodes %s', (_what, cv, expected) => {
    expect(json(cv)).toEqual(expected);
  });

  it('decodes nesting: tuples in lists in responses, keys as Clarity writes them', () => {
    const value = Cl.ok(
      Cl.tuple({
        'recipient-address': Cl.standardPrincipal(SENDER),
        items: Cl.list([Cl.tuple({ 'token-id': Cl.uint(1), memo: Cl.some(Cl.bufferFromHex('00ff')) }), Cl.tuple({ 'token-id': Cl.uint(2), memo: Cl.none() })]),
        nested: Cl.tuple({ deeper: Cl.tuple({ amount: Cl.int(-1) }) }),
      }),
    );
    expect(json(value)).toEqual({
      ok: {
        items: [
          { memo: '0x00ff', 'token-id': '1' },
          { memo: null, 'token-id': '2' },
        ],
        nested: { deeper: { amount: '-1' } },
        'recipient-address': SENDER,
      },
    });
  });

  it('refuses bytes that are not one whole Clarity value, naming what is wrong', () => {
    expect(() => decodeClarity('0x0c')).toThrow(ClarityDecodeError);
    expect(() => decodeClarity('0x0c')).toThrow(/ends early/);
    expect(() => decodeClarity('0x0303')).toThrow(/left over/);
    expect(() => decodeClarity('0x42')).toThrow(/unknown type id 0x42/);
    expect(() => decodeClarity('0x0')).toThrow(/whole bytes/);
    expect(() => decodeClarity('0x0e00000002c328')).toThrow(/not UTF-8/);
    expect(() => decodeClarity(`0x${'0a'.repeat(100)}09`)).toThrow(/nested deeper/);
  });
});
