// The v3 asset events (`/extended/v3/transactions/{tx_id}/events`) into the domain's movements: the same
// values the v1 mapper gives for the same events, in the shapes the API's v3 serializer writes (a mint with
// no sender, a burn with no recipient and no memo), and a malformed event refused, naming what is wrong.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { toAssetEvent } from '../../lambda/hiro/mappers';
import { fromV3AssetEvent } from '../../lambda/hiro/mappers-v3';
import { txMultipleSchema } from '../../lambda/hiro/schemas';
import { v3TransactionEventsPageSchema, type RawV3TransactionEvent } from '../../lambda/hiro/schemas-v3';
import { fakeAddress, ftAssetEvent, nftAssetEvent, print, stxAssetEvent, stxTransferEvent, type FakeEvent } from '../support/fake-hiro';
import { renderEvent } from '../support/fake-hiro/routes-v3';

const TX = '0x05ccc123db703a2808afaaf88b6b3240f14391d14fde701bd20d7206c9133af6';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token';
const BNS = 'SP000000000000000000002Q6VF78.bns::names';
const alice = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const bob = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
const name = {
  hex: '0x0c00000002046e616d65020000000a62696c616c7465737435096e616d6573706163650200000003627463',
  repr: '(tuple (name 0x62696c616c7465737435) (namespace 0x627463))',
};
const payroll = { hex: '0x706179726f6c6c', repr: 'payroll' };

function page(results: unknown[]) {
  return { total: results.length, limit: 100, cursor: { next: null, previous: null, current: '0' }, results };
}
function parse(results: unknown[]): RawV3TransactionEvent[] {
  return v3TransactionEventsPageSchema.parse(page(results)).results;
}
/** The dotted paths of every issue a page of these events raises. */
function issuePaths(results: unknown[]): string[] {
  const result = v3TransactionEventsPageSchema.safeParse(page(results));
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => issue.path.join('.'));
}

describe('v3 asset events', () => {
  it('map STX transfers (with a memo and without), mints and burns, as the API serializes them', () => {
    const mapped = parse([
      { event_index: 0, type: 'stx_asset', stx_asset: { type: 'transfer', sender: alice, recipient: bob, amount: '10000', memo: null } },
      { event_index: 1, type: 'stx_asset', stx_asset: { type: 'transfer', sender: bob, recipient: alice, amount: '7000000', memo: payroll } },
      { event_index: 2, type: 'stx_asset', stx_asset: { type: 'mint', recipient: alice, amount: '5' } },
      { event_index: 3, type: 'stx_asset', stx_asset: { type: 'burn', sender: bob, amount: '7' } },
    ]).map(fromV3AssetEvent);

    expect(mapped).toEqual([
      { eventIndex: 0, asset: 'stx', action: 'transfer', sender: alice, recipient: bob, amount: '10000', memo: null },
      { eventIndex: 1, asset: 'stx', action: 'transfer', sender: bob, recipient: alice, amount: '7000000', memo: payroll.hex },
      { eventIndex: 2, asset: 'stx', action: 'mint', sender: null, recipient: alice, amount: '5', memo: null },
      { eventIndex: 3, asset: 'stx', action: 'burn', sender: bob, recipient: null, amount: '7', memo: null },
    ]);
  });

  it('map fungible token transfers, mints and burns with their asset identifier', () => {
    const mapped = parse([
      { event_index: 0, type: 'ft_asset', ft_asset: { type: 'transfer', asset_identifier: SBTC, sender: alice, recipient: bob, amount: '999' } },
      { event_index: 1, type: 'ft_asset', ft_asset: { type: 'mint', recipient: alice, asset_identifier: SBTC, amount: '50000000' } },
      { event_index: 2, type: 'ft_asset', ft_asset: { type: 'burn', sender: bob, asset_identifier: SBTC, amount: '300' } },
    ]).map(fromV3AssetEvent);

    expect(mapped).toEqual([
      { eventIndex: 0, asset: 'ft', action: 'transfer', assetId: SBTC, sender: alice, recipient: bob, amount: '999' },
      { eventIndex: 1, asset: 'ft', action: 'mint', assetId: SBTC, sender: null, recipient: alice, amount: '50000000' },
      { eventIndex: 2, asset: 'ft', action: 'burn', assetId: SBTC, sender: bob, recipient: null, amount: '300' },
    ]);
  });

  it('map non-fungible token transfers, mints and burns with the token value', () => {
    const mapped = parse([
      { event_index: 4, type: 'nft_asset', nft_asset: { type: 'transfer', asset_identifier: BNS, sender: alice, recipient: bob, value: name } },
      { event_index: 5, type: 'nft_asset', nft_asset: { type: 'mint', recipient: bob, asset_identifier: BNS, value: name } },
      { event_index: 6, type: 'nft_asset', nft_asset: { type: 'burn', sender: bob, asset_identifier: BNS, value: name } },
    ]).map(fromV3AssetEvent);

    const nft = { asset: 'nft', assetId: BNS, valueHex: name.hex, valueRepr: name.repr };
    expect(mapped).toEqual([
      { ...nft, eventIndex: 4, action: 'transfer', sender: alice, recipient: bob },
      { ...nft, eventIndex: 5, action: 'mint', sender: null, recipient: bob },
      { ...nft, eventIndex: 6, action: 'burn', sender: bob, recipient: null },
    ]);
  });

  it("read a null or empty party (v1's way of saying none) and an empty memo as none", () => {
    const [mint, transfer] = parse([
      { event_index: 0, type: 'ft_asset', ft_asset: { type: 'mint', sender: '', recipient: alice, asset_identifier: SBTC, amount: '1' } },
      { event_index: 1, type: 'stx_asset', stx_asset: { type: 'transfer', sender: alice, recipient: bob, amount: '1', memo: { hex: '0x', repr: '' } } },
    ]).map(fromV3AssetEvent);

    expect(mint).toMatchObject({ sender: null, recipient: alice });
    expect(transfer).toMatchObject({ memo: null });
  });

  it('skip logs, STX locks and event types it does not know', () => {
    const mapped = parse([
      {
        event_index: 0,
        type: 'contract_log',
        contract_log: { contract_id: `${alice}.vault`, topic: 'print', value: { hex: '0x0100000000000000000000000000000001', repr: 'u1' } },
      },
      { event_index: 1, type: 'stx_lock', stx_lock: { amount: '1', unlock_bitcoin_height: 9, address: alice } },
      { event_index: 2, type: 'something_new' },
    ]).map(fromV3AssetEvent);

    expect(mapped).toEqual([null, null, null]);
  });

  it('give the same movements as the v1 mapper for the same events', () => {
    const sender = fakeAddress('sender');
    const recipient = fakeAddress('recipient');
    const events: FakeEvent[] = [
      stxTransferEvent(sender, recipient, 60),
      stxTransferEvent(sender, recipient, 61, payroll.hex),
      stxAssetEvent({ action: 'mint', to: recipient }, 62),
      stxAssetEvent({ action: 'burn', from: sender }, 63),
      ftAssetEvent(SBTC, { action: 'transfer', from: sender, to: recipient }, 64),
      ftAssetEvent(SBTC, { action: 'mint', to: recipient }, 65),
      ftAssetEvent(SBTC, { action: 'burn', from: sender }, 66),
      nftAssetEvent(BNS, { action: 'transfer', from: sender, to: recipient }, Cl.uint(1)),
      nftAssetEvent(BNS, { action: 'mint', to: recipient }, Cl.uint(2)),
      nftAssetEvent(BNS, { action: 'burn', from: sender }, Cl.uint(3)),
      print(`${sender}.vault`, 'not a movement'),
    ];
    const v1Events = events.map((event, index) => ({ ...event, event_index: index, tx_id: TX }));
    const v1 = txMultipleSchema.parse({ [TX]: { found: true, result: { tx_id: TX, event_count: events.length, events: v1Events } } })[TX]!;
    if (!v1.found) throw new Error('not found');
    // The fake's v3 rendering writes the mint and burn shapes of the API's v3 serializer (no sender, no recipient).
    const v3 = JSON.parse(JSON.stringify(events.map((event, index) => renderEvent(event, index)))) as unknown[];

    const fromV1 = v1.result.events.map(toAssetEvent);
    expect(parse(v3).map(fromV3AssetEvent)).toEqual(fromV1);
    expect(fromV1.filter((e) => e !== null)).toHaveLength(10);
  });
});

describe('v3 asset events that are malformed', () => {
  it('are refused when the object their type names is missing, naming it', () => {
    const paths = issuePaths([
      { event_index: 0, type: 'stx_asset' },
      { event_index: 1, type: 'ft_asset', ft_asset: null },
      { event_index: 2, type: 'nft_asset', stx_asset: { type: 'transfer', sender: alice, recipient: bob, amount: '1', memo: null } },
    ]);

    expect(paths).toEqual(['results.0.stx_asset', 'results.1.ft_asset', 'results.2.nft_asset']);
  });

  it('are refused when a field the asset needs is missing or malformed, naming the field', () => {
    const paths = issuePaths([
      { event_index: 0, type: 'stx_asset', stx_asset: { type: 'transfer', sender: alice, recipient: bob, memo: null } },
      { event_index: 1, type: 'ft_asset', ft_asset: { type: 'mint', recipient: alice, amount: '1' } },
      { event_index: 2, type: 'nft_asset', nft_asset: { type: 'transfer', asset_identifier: BNS, sender: alice, recipient: bob } },
      { event_index: 3, type: 'ft_asset', ft_asset: { type: 'transfer', asset_identifier: SBTC, sender: alice, recipient: bob, amount: '1.5' } },
      { event_index: 4, type: 'ft_asset', ft_asset: { type: 'swap', asset_identifier: SBTC, sender: alice, recipient: bob, amount: '1' } },
      { event_index: 5, type: 'stx_asset', stx_asset: { type: 'transfer', sender: alice, recipient: bob, amount: '1', memo: { hex: 'payroll', repr: '' } } },
    ]);

    expect(paths).toEqual([
      'results.0.stx_asset.amount',
      'results.1.ft_asset.asset_identifier',
      'results.2.nft_asset.value',
      'results.3.ft_asset.amount',
      'results.4.ft_asset.type',
      'results.5.stx_asset.memo.hex',
    ]);
  });

  it('are refused when a party the action moves between is missing, rather than reach no tracked address', () => {
    const result = v3TransactionEventsPageSchema.safeParse(
      page([
        { event_index: 0, type: 'stx_asset', stx_asset: { type: 'transfer', sender: alice, amount: '1', memo: null } },
        { event_index: 1, type: 'ft_asset', ft_asset: { type: 'mint', asset_identifier: SBTC, amount: '1' } },
        { event_index: 2, type: 'nft_asset', nft_asset: { type: 'burn', asset_identifier: BNS, sender: '', value: name } },
        { event_index: 3, type: 'ft_asset', ft_asset: { type: 'transfer', asset_identifier: SBTC, recipient: bob, amount: '1' } },
      ]),
    );

    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'results.0.stx_asset.recipient: missing for a transfer stx_asset event',
      'results.1.ft_asset.recipient: missing for a mint ft_asset event',
      'results.2.nft_asset.sender: missing for a burn nft_asset event',
      'results.3.ft_asset.sender: missing for a transfer ft_asset event',
    ]);
  });
});
