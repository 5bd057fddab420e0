import { describe, expect, it } from 'vitest';
import type { FtAssetEvent, StxAssetEvent, Transaction } from '../../../lambda/core/domain';
import { compileMemo, readMemo } from '../../../lambda/core/rules/memo-filter';
import { stxTransferKind } from '../../../lambda/core/alert-kinds/stx-transfer';
import { ftTransferKind } from '../../../lambda/core/alert-kinds/ft-transfer';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { WATCHED } from '../harness';
import { bufferPrint, callTx, header, input, rules, SBTC, SEND_MANY, TX } from './asset-fixtures';

const hex = (text: string) => `0x${Buffer.from(text).toString('hex')}`;
/** A native transfer's memo: 34 bytes, zero-padded on the right. */
const padded = (text: string) => hex(text).padEnd(2 + 68, '0');

const leg = (eventIndex: number, over: Partial<StxAssetEvent> = {}): StxAssetEvent => ({
  eventIndex,
  asset: 'stx',
  action: 'transfer',
  sender: SEND_MANY,
  recipient: WATCHED,
  amount: '1000000',
  memo: null,
  ...over,
});
const nativeTx = (memo: string, txId = TX): Transaction => ({
  txId,
  txIndex: 0,
  txType: 'token_transfer',
  txStatus: 'success',
  sender: SEND_MANY.split('.')[0]!,
  eventCount: 1,
  tokenTransfer: { recipient: WATCHED, amount: '5', memo },
});

describe('transfer memos', () => {
  it('read as text with the padding stripped, as hex when not printable, and as none when all padding', () => {
    expect(readMemo(padded('cust-0042'))).toEqual({ hex: hex('cust-0042'), text: 'cust-0042' });
    expect(readMemo('0xff0001')).toEqual({ hex: '0xff0001', text: null });
    expect(readMemo('0x0a0b')).toEqual({ hex: '0x0a0b', text: null }); // control characters are not text
    expect(readMemo(`0x${'00'.repeat(34)}`)).toEqual({ hex: null, text: null });
    expect(readMemo(null)).toEqual({ hex: null, text: null });
    expect(readMemo('not hex')).toEqual({ hex: null, text: null });
  });

  it('compare text with text and a 0x value with the bytes, for eq, startsWith, in and exists', () => {
    const memo = readMemo(padded('cust-0042'));
    expect(compileMemo({ eq: 'cust-0042' })(memo)).toBe(true);
    expect(compileMemo({ eq: 'cust-004' })(memo)).toBe(false);
    expect(compileMemo({ eq: hex('cust-0042').toUpperCase().replace('0X', '0x') })(memo)).toBe(true);
    expect(compileMemo({ startsWith: 'cust-' })(memo)).toBe(true);
    expect(compileMemo({ startsWith: hex('cust') })(memo)).toBe(true);
    expect(compileMemo({ startsWith: 'CUST-' })(memo)).toBe(false);
    expect(compileMemo({ in: ['a', 'cust-0042'] })(memo)).toBe(true);
    expect(compileMemo({ in: ['a', hex('cust-0042')] })(memo)).toBe(true);
    expect(compileMemo({ in: ['a', 'b'] })(memo)).toBe(false);
    expect(compileMemo({ exists: false })(memo)).toBe(false);
    expect(compileMemo({ exists: true })(memo)).toBe(true);
    expect(compileMemo({ exists: false })(readMemo(`0x${'00'.repeat(34)}`))).toBe(true);
    // A binary memo has no text: only its bytes can match it.
    expect(compileMemo({ eq: '\u00ff' })(readMemo('0xff'))).toBe(false);
    expect(compileMemo({ eq: '0xff' })(readMemo('0xff'))).toBe(true);
  });

  it('pick send-many-memo legs by the memo printed after each, and carry memo_text', () => {
    const watch = rules({ addresses: [] }, [{ to: [WATCHED], memo: { eq: 'inv-2' } }]);
    const legs = [leg(0), leg(2), leg(4)];
    const logs = [bufferPrint(1, SEND_MANY, hex('inv-1').slice(2)), bufferPrint(3, SEND_MANY, hex('inv-2').slice(2))];
    const found = stxTransferKind.chain.match(input(callTx(), legs, watch, logs));
    expect(found.map((m) => [m.alert.event_index, m.alert.memo, m.alert.memo_text])).toEqual([[2, hex('inv-2'), 'inv-2']]);
  });

  it('alert a deposit without a memo under its own rule and severity, and only that one', () => {
    const watch = rules({ addresses: [] }, [{ to: [WATCHED], memo: { exists: false }, name: 'deposit without memo', severity: 'critical' }]);
    const logs = [bufferPrint(1, SEND_MANY, hex('inv-1').slice(2))];
    const found = stxTransferKind.chain.match(input(callTx(), [leg(0), leg(2)], watch, logs));
    expect(found.map((m) => [m.alert.event_index, m.alert.rule, m.alert.severity])).toEqual([[2, 'deposit without memo', 'critical']]);
  });

  it('match native transfers by memo text, by hex, and by a missing memo', () => {
    const block = (memo: string) => ({ block: { header, transactions: [nativeTx(memo)] }, events: new Map(), network: 'mainnet' as const });
    const byText = rules({ addresses: [] }, [{ to: [WATCHED], memo: { startsWith: 'cust-' } }]);
    const byHex = rules({ addresses: [] }, [{ to: [WATCHED], memo: { eq: '0xdeadbeef' } }]);
    const missing = rules({ addresses: [] }, [{ to: [WATCHED], memo: { exists: false } }]);
    expect(tokenTransferKind.chain.match({ ...block(padded('cust-7')), rules: byText }).map((m) => m.alert.memo_text)).toEqual(['cust-7']);
    expect(tokenTransferKind.chain.match({ ...block(padded('other')), rules: byText })).toEqual([]);
    expect(tokenTransferKind.chain.match({ ...block('0xdeadbeef'.padEnd(70, '0')), rules: byHex }).map((m) => m.alert.memo_text)).toEqual([null]);
    expect(tokenTransferKind.chain.match({ ...block(`0x${'00'.repeat(34)}`), rules: missing })).toHaveLength(1);
    expect(tokenTransferKind.chain.match({ ...block(padded('x')), rules: missing })).toEqual([]);
  });

  it('filter every `addresses` alert by addressesRule.memo', () => {
    const watch = rules({ addresses: [WATCHED], addressesRule: { memo: { in: ['a', 'b'] } } } as never);
    const block = (memo: string) => ({ block: { header, transactions: [nativeTx(memo)] }, events: new Map(), network: 'mainnet' as const, rules: watch });
    expect(tokenTransferKind.chain.match(block(padded('b')))).toHaveLength(1);
    expect(tokenTransferKind.chain.match(block(padded('c')))).toEqual([]);
  });

  it("read an SIP-010 token's memo from the print right after its movement", () => {
    const watch = rules({ addresses: [] }, [{ asset: SBTC, to: [WATCHED], memo: { eq: 'deposit-9' } }]);
    const sbtc = SBTC.split('::')[0]!;
    const ft = (eventIndex: number): FtAssetEvent => ({
      eventIndex,
      asset: 'ft',
      action: 'transfer',
      assetId: SBTC,
      sender: SEND_MANY,
      recipient: WATCHED,
      amount: '100',
    });
    const tx = callTx({ contractId: sbtc });
    const found = ftTransferKind.chain.match(
      input(tx, [ft(0), ft(2)], watch, [bufferPrint(1, sbtc, hex('deposit-9').slice(2)), bufferPrint(3, sbtc, hex('deposit-8').slice(2))]),
    );
    expect(found.map((m) => [m.alert.event_index, m.alert.memo_text])).toEqual([[0, 'deposit-9']]);
  });
});

describe('memo conditions in watch.json', () => {
  const parse = (memo: unknown, where: 'transfers' | 'addressesRule' = 'transfers') =>
    parseWatchConfig({
      network: 'mainnet',
      ...(where === 'transfers' ? { transfers: [{ asset: 'stx', to: [WATCHED], memo }] } : { addresses: [WATCHED], addressesRule: { memo } }),
    });
  const problems = (memo: unknown) => {
    const result = parse(memo);
    return result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`);
  };

  it('accept each form on transfer rules and addressesRule, and say it in the default rule name', () => {
    const result = parse({ startsWith: 'cust-' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const compiled = compileWatchRules(result.config);
    expect(compiled.transfers.get('stx')![0]!.meta.rule).toBe(`transfers:stx to ${WATCHED} memo starting "cust-"`);
    expect(parse({ exists: false }, 'addressesRule').ok).toBe(true);
    expect(parse({ in: ['a', '0x00ff'] }).ok).toBe(true);
  });

  it.each([
    [{ eq: '' }, 'must not be empty'],
    [{ eq: '0xabc' }, 'not whole bytes of hex'],
    [{ eq: 'a\u202eb' }, 'no control or invisible characters'],
    [{ eq: 'a', startsWith: 'b' }, 'must be one of'],
    [{ in: [] }, 'must list at least one memo'],
    [{ exists: 'no' }, 'must be one of'],
    ['INV-1', 'must be one of'],
  ])('refuse %j, saying why', (memo, message) => {
    expect(problems(memo).join('\n')).toContain(message);
  });
});
