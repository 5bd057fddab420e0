import { describe, expect, it } from 'vitest';
import type { NftAssetEvent } from '../../../lambda/core/domain';
import { nftTransferKind } from '../../../lambda/core/alert-kinds/nft-transfer';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { renderSubject } from '../../../lambda/core/render';
import { OTHER, WATCHED } from '../harness';
import { BNS, callTx, input, rules, TX } from './asset-fixtures';

const nft = (eventIndex: number, over: Partial<NftAssetEvent> = {}): NftAssetEvent => ({
  eventIndex,
  asset: 'nft',
  action: 'transfer',
  assetId: BNS,
  sender: OTHER,
  recipient: WATCHED,
  valueHex: '0x0100000000000000000000000000000007',
  valueRepr: 'u7',
  ...over,
});
const match = (...args: Parameters<typeof input>) => nftTransferKind.chain.match(input(...args));

describe('nft_transfer kind', () => {
  it("alerts an NFT arriving at a watched recipient, with the token's Clarity value", () => {
    const [found] = match(callTx(), [nft(2)], rules({ addresses: [] }, [{ asset: BNS, to: [WATCHED] }]));
    expect(found).toEqual({
      at: { txIndex: 3, eventIndex: 2 },
      alert: expect.objectContaining({
        type: 'nft_transfer',
        key: `nft_transfer:${TX}:2`,
        asset_id: BNS,
        action: 'transfer',
        sender: OTHER,
        recipient: WATCHED,
        address: WATCHED,
        direction: 'received',
        value_repr: 'u7',
        value_hex: '0x0100000000000000000000000000000007',
      }),
    });
    expect(renderSubject(found!.alert)).toBe('[stacks-watch] SP2C...YZR received NFT names u7 (block 182,345)');
    expect(filterAttributes(found!.alert)).toMatchObject({ address: WATCHED, asset_id: BNS });
  });

  it('never matches a rule with minAmount: an NFT has no amount', () => {
    expect(match(callTx(), [nft(0)], rules({ addresses: [] }, [{ asset: BNS, to: [WATCHED], minAmount: '0' }]))).toEqual([]);
    expect(match(callTx(), [nft(0)], rules({ addresses: [] }, [{ asset: '*', to: [WATCHED], minAmount: '1' }]))).toEqual([]);
  });

  it('alerts a mint to and a sale from watched principals; never for addresses alone or a failed call', () => {
    const watch = rules({ addresses: [] }, [{ asset: '*', to: [WATCHED], from: [WATCHED] }]);
    const events = [nft(0, { action: 'mint', sender: null }), nft(1, { sender: WATCHED, recipient: OTHER })];
    expect(match(callTx(), events, watch).map((m) => m.alert.direction)).toEqual(['minted', 'sent']);
    expect(match(callTx(), [nft(0)], rules())).toEqual([]);
    expect(match(callTx({ txStatus: 'abort_by_post_condition' }), [nft(0)], watch)).toEqual([]);
  });
});
