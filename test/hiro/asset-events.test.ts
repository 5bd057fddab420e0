// The v1 asset events (`/extended/v1/tx/multiple`) into the domain's movements, from bodies of the API's own
// examples: STX, fungible and non-fungible tokens; mints without a sender, burns without a recipient.
import { describe, expect, it } from 'vitest';
import { toAssetEvent } from '../../lambda/hiro/mappers';
import { txMultipleSchema, type RawTxEvent } from '../../lambda/hiro/schemas';

const TX = '0x05ccc123db703a2808afaaf88b6b3240f14391d14fde701bd20d7206c9133af6';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';

// From the API's v1 event example (a BNS name transfer) and its token transfer example.
const bnsTransfer = {
  event_index: 0,
  event_type: 'non_fungible_token_asset',
  tx_id: TX,
  asset: {
    asset_event_type: 'transfer',
    asset_id: 'ST000000000000000000002AMW42H.bns::names',
    sender: 'STKVDRCTN8C81T22QHR9PG9GPD3V3WPQYBYFHPT4',
    recipient: 'STRWN68C36Z7WTDD1TJERTAZ4SXDRMMDB29M4VNQ',
    value: {
      hex: '0x0c00000002046e616d65020000000a62696c616c7465737435096e616d6573706163650200000003627463',
      repr: '(tuple (name 0x62696c616c7465737435) (namespace 0x627463))',
    },
  },
};
const stxTransfer = {
  event_index: 1,
  event_type: 'stx_asset',
  tx_id: TX,
  asset: {
    asset_event_type: 'transfer',
    sender: 'STJTXEJPJPPVDNA9B052NSRRBGQCFNKVS178VGH1',
    recipient: 'ST1RZG804V6Y0N4XHQD3ZE2GE3XSCV3VHRKMA3GB0',
    amount: '10000',
  },
};
const sbtcMint = {
  event_index: 2,
  event_type: 'fungible_token_asset',
  tx_id: TX,
  asset: { asset_event_type: 'mint', asset_id: SBTC, sender: '', recipient: 'ST1RZG804V6Y0N4XHQD3ZE2GE3XSCV3VHRKMA3GB0', amount: '50000000' },
};
const stxBurnWithMemo = {
  event_index: 3,
  event_type: 'stx_asset',
  tx_id: TX,
  asset: { asset_event_type: 'burn', sender: 'STJTXEJPJPPVDNA9B052NSRRBGQCFNKVS178VGH1', recipient: '', amount: '7', memo: '0x74657374' },
};
const stxLock = { event_index: 4, event_type: 'stx_lock', tx_id: TX, stx_lock_event: { locked_amount: '1', unlock_height: 9, locked_address: 'ST1' } };

function parse(events: unknown[]): RawTxEvent[] {
  const body = txMultipleSchema.parse({ [TX]: { found: true, result: { tx_id: TX, event_count: events.length, events } } });
  const entry = body[TX]!;
  if (!entry.found) throw new Error('not found');
  return entry.result.events;
}

describe('v1 asset events', () => {
  it('map STX, fungible and non-fungible movements, a mint with no sender and a burn with no recipient; skip the rest', () => {
    const mapped = parse([bnsTransfer, stxTransfer, sbtcMint, stxBurnWithMemo, stxLock]).map(toAssetEvent);
    expect(mapped).toEqual([
      {
        eventIndex: 0,
        asset: 'nft',
        action: 'transfer',
        assetId: 'ST000000000000000000002AMW42H.bns::names',
        sender: 'STKVDRCTN8C81T22QHR9PG9GPD3V3WPQYBYFHPT4',
        recipient: 'STRWN68C36Z7WTDD1TJERTAZ4SXDRMMDB29M4VNQ',
        valueHex: bnsTransfer.asset.value.hex,
        valueRepr: bnsTransfer.asset.value.repr,
      },
      {
        eventIndex: 1,
        asset: 'stx',
        action: 'transfer',
        sender: stxTransfer.asset.sender,
        recipient: stxTransfer.asset.recipient,
        amount: '10000',
        memo: null,
      },
      { eventIndex: 2, asset: 'ft', action: 'mint', assetId: SBTC, sender: null, recipient: sbtcMint.asset.recipient, amount: '50000000' },
      { eventIndex: 3, asset: 'stx', action: 'burn', sender: stxBurnWithMemo.asset.sender, recipient: null, amount: '7', memo: '0x74657374' },
      null,
    ]);
  });

  it('reject an asset event missing what its type needs, naming the field, rather than lose the movement', () => {
    const noAmount = { ...stxTransfer, asset: { ...stxTransfer.asset, amount: undefined } };
    const noAssetId = { ...sbtcMint, asset: { ...sbtcMint.asset, asset_id: undefined } };
    const noValue = { ...bnsTransfer, asset: { ...bnsTransfer.asset, value: undefined } };
    const noAsset = { event_index: 5, event_type: 'fungible_token_asset', tx_id: TX };
    const result = txMultipleSchema.safeParse({ [TX]: { found: true, result: { tx_id: TX, events: [noAmount, noAssetId, noValue, noAsset] } } });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.slice(-2).join('.'));
    expect(paths).toEqual(expect.arrayContaining(['asset.amount', 'asset.asset_id', 'asset.value', '3.asset']));
  });

  it('reject an amount that is no whole number of base units', () => {
    const bad = { ...sbtcMint, asset: { ...sbtcMint.asset, amount: '1.5' } };
    expect(txMultipleSchema.safeParse({ [TX]: { found: true, result: { tx_id: TX, events: [bad] } } }).success).toBe(false);
  });

  it('never gives a burn a recipient or a mint a sender, even when the API names one', () => {
    const [burn, mint] = parse([
      { ...stxBurnWithMemo, asset: { ...stxBurnWithMemo.asset, recipient: stxBurnWithMemo.asset.sender } },
      { ...sbtcMint, asset: { ...sbtcMint.asset, sender: stxBurnWithMemo.asset.sender } },
    ]).map(toAssetEvent);
    expect([burn?.recipient, mint?.sender]).toEqual([null, null]);
  });
});
