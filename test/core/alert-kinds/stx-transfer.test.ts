import { describe, expect, it } from 'vitest';
import type { StxAssetEvent } from '../../../lambda/core/domain';
import { stxTransferKind } from '../../../lambda/core/alert-kinds/stx-transfer';
import { clarityBufferHex } from '../../../lambda/core/alert-kinds/asset-moves';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { renderSms, renderSubject } from '../../../lambda/core/render';
import { OTHER, WATCHED } from '../harness';
import { bufferPrint, callTx, header, input, rules, SEND_MANY, TREASURY, TX } from './asset-fixtures';

const stx = (eventIndex: number, over: Partial<StxAssetEvent> = {}): StxAssetEvent => ({
  eventIndex,
  asset: 'stx',
  action: 'transfer',
  sender: SEND_MANY,
  recipient: WATCHED,
  amount: '1000000',
  memo: null,
  ...over,
});
const match = (...args: Parameters<typeof input>) => stxTransferKind.chain.match(input(...args));
/** A native STX transfer whose own `stx_asset` event is `stx(0)`. */
const nativeTransfer = (eventCount = 1) =>
  callTx({
    txType: 'token_transfer',
    sender: SEND_MANY,
    contractId: undefined,
    eventCount,
    tokenTransfer: { recipient: WATCHED, amount: '1000000', memo: '0x' },
  });

describe('stx_transfer kind', () => {
  it('alerts STX arriving at a watched address inside a contract call, as the documented JSON, placed at its event', () => {
    expect(match(callTx(), [stx(0)], rules())).toEqual([
      {
        at: { txIndex: 3, eventIndex: 0 },
        alert: {
          type: 'stx_transfer',
          key: `stx_transfer:${TX}:0`,
          network: 'mainnet',
          tx_id: TX,
          block_height: 182345,
          block_hash: header.hash,
          block_time: 1714564800,
          event_index: 0,
          action: 'transfer',
          sender: SEND_MANY,
          recipient: WATCHED,
          address: WATCHED,
          direction: 'received',
          amount: '1000000',
          memo: null,
          memo_text: null,
          contract_id: SEND_MANY,
          rule: 'addresses',
          severity: 'warning',
        },
      },
    ]);
  });

  it('gives each send-many-memo leg the buffer the called contract printed right after it', () => {
    const legs = [stx(0), stx(2, { amount: '5' }), stx(4, { recipient: OTHER })];
    const logs = [bufferPrint(1, SEND_MANY, '696e762d31'), bufferPrint(3, SEND_MANY, '696e762d32'), bufferPrint(5, SEND_MANY, '78')];
    expect(match(callTx(), legs, rules(), logs).map((m) => [m.alert.event_index, m.alert.memo])).toEqual([
      [0, '0x696e762d31'],
      [2, '0x696e762d32'],
    ]);
  });

  it("keeps an event's own memo, and pairs no print by another contract, of another value, or not right after", () => {
    const logs = [
      bufferPrint(1, `${OTHER}.elsewhere`, '61'),
      { ...bufferPrint(3, SEND_MANY, '62'), valueHex: '0x0d0000000162' },
      bufferPrint(6, SEND_MANY, '63'),
    ];
    const found = match(callTx(), [stx(0), stx(2), stx(4), stx(7, { memo: '0x74657374' })], rules(), [...logs, bufferPrint(8, SEND_MANY, '64')]);
    expect(found.map((m) => m.alert.memo)).toEqual([null, null, null, '0x74657374']);
  });

  it('reads a Clarity buffer and nothing else as a memo', () => {
    expect(clarityBufferHex('0x0200000003616263')).toBe('0x616263');
    expect(clarityBufferHex('0x02000000046162')).toBeNull(); // length says 4, two bytes follow
    expect(clarityBufferHex('0x0d00000003616263')).toBeNull(); // a string-ascii
  });

  it('skips native transfers (alerted as token_transfer), failed transactions, and STX nobody watches', () => {
    expect(match(nativeTransfer(), [stx(0)], rules())).toEqual([]);
    expect(match(callTx({ txStatus: 'abort_by_response' }), [stx(0)], rules())).toEqual([]);
    expect(match(callTx(), [stx(0, { recipient: OTHER })], rules())).toEqual([]);
    expect(match(callTx(), [stx(0)], rules({ addresses: [] }))).toEqual([]);
  });

  it("alerts the STX mints a token_transfer carries beyond its own event (the genesis block's), and reads events for them", () => {
    const mints = [stx(1, { action: 'mint', sender: null }), stx(2, { action: 'mint', sender: null, recipient: OTHER })];
    const found = match(nativeTransfer(3), [stx(0), ...mints], rules());
    expect(found.map((m) => [m.alert.event_index, m.alert.direction, m.alert.address])).toEqual([[1, 'minted', WATCHED]]);
    expect(stxTransferKind.chain.needsEvents(nativeTransfer(3), rules())).toBe(true);
    expect(stxTransferKind.chain.needsEvents(callTx({ txType: 'coinbase', eventCount: 2 }), rules())).toBe(true);
  });

  it('alerts an outflow or a burn from a watched sender, naming the sender as the tracked address', () => {
    const watch = rules({ addresses: [] }, [{ asset: 'stx', from: [TREASURY] }]);
    const found = match(callTx(), [stx(0, { sender: TREASURY, recipient: OTHER }), stx(1, { action: 'burn', sender: TREASURY, recipient: null })], watch);
    expect(found.map((m) => [m.alert.address, m.alert.direction])).toEqual([
      [TREASURY, 'sent'],
      [TREASURY, 'burned'],
    ]);
    expect(filterAttributes(found[0]!.alert)).toEqual({
      type: 'stx_transfer',
      network: 'mainnet',
      rule: `transfers:stx from ${TREASURY}`,
      severity: 'warning',
      address: TREASURY,
      asset_id: 'stx',
    });
  });

  it('holds to minAmount and the listed actions, comparing amounts beyond 2^53 exactly', () => {
    const watch = rules({ addresses: [] }, [{ asset: 'stx', to: [WATCHED], minAmount: '9007199254740993', actions: ['transfer'] }]);
    const found = match(
      callTx(),
      [stx(0, { amount: '9007199254740992' }), stx(1, { amount: '9007199254740993' }), stx(2, { action: 'mint', sender: null, amount: '99999999999999999' })],
      watch,
    );
    expect(found.map((m) => m.alert.event_index)).toEqual([1]);
  });

  it('alerts once when the same event matches several rules and the address list, under the most severe rule', () => {
    const watch = rules({}, [
      { asset: 'stx', to: [WATCHED], name: 'STX in', severity: 'info' },
      { asset: '*', to: [WATCHED], name: 'Anything in', severity: 'critical' },
      { asset: '*', to: [WATCHED], name: 'Also critical, listed later', severity: 'critical' },
      { asset: '*', from: [SEND_MANY], name: 'Sender side', severity: 'critical' },
    ]);
    const found = match(callTx(), [stx(0)], watch);
    expect(found.map((m) => [m.alert.rule, m.alert.severity, m.alert.direction])).toEqual([['Anything in', 'critical', 'received']]);
  });

  it('needs the events of successful calls and deploys with events when addresses or transfers are watched', () => {
    const { needsEvents } = stxTransferKind.chain;
    expect(needsEvents(callTx(), rules())).toBe(true);
    expect(needsEvents(callTx({ txType: 'smart_contract' }), rules({ addresses: [] }, [{ asset: 'stx', to: [WATCHED] }]))).toBe(true);
    expect(needsEvents(callTx({ eventCount: 0 }), rules())).toBe(false);
    expect(needsEvents(callTx({ txStatus: 'abort_by_post_condition' }), rules())).toBe(false);
    expect(needsEvents(callTx({ txType: 'token_transfer', eventCount: 1 }), rules())).toBe(false);
    expect(needsEvents(callTx({ txType: 'token_transfer', eventCount: null }), rules())).toBe(false);
    expect(needsEvents(callTx(), rules({ addresses: [] }))).toBe(false);
  });

  it('reads with the tracked address and direction first, STX exact, and the memo as text', () => {
    const [found] = match(callTx(), [stx(0, { amount: '1250500000' })], rules(), [bufferPrint(1, SEND_MANY, '696e762d31')]);
    expect(renderSubject(found!.alert)).toBe('[stacks-watch] SP2C...YZR received 1,250.5 STX (block 182,345)');
    expect(renderSms(found!.alert)).toMatch(/^SP2C\.\.\.YZR received 1250\.5 STX memo: inv-1 blk 182345 from .* https:\/\/explorer\.hiro\.so\/txid\/0x(ab)+$/);
  });
});
