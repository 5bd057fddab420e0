import { describe, expect, it } from 'vitest';
import type { FtAssetEvent } from '../../../lambda/core/domain';
import { ftTransferKind } from '../../../lambda/core/alert-kinds/ft-transfer';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { retractionOf } from '../../../lambda/core/alert-kinds/retraction';
import { renderSms, renderSubject, renderTerminal } from '../../../lambda/core/render';
import { formatTokenAmount } from '../../../lambda/core/render/token-amount';
import { OTHER, WATCHED } from '../harness';
import { callTx, input, rules, SBTC, TREASURY, TX } from './asset-fixtures';

const DIKO = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token::diko';
const ft = (eventIndex: number, over: Partial<FtAssetEvent> = {}): FtAssetEvent => ({
  eventIndex,
  asset: 'ft',
  action: 'transfer',
  assetId: DIKO,
  sender: OTHER,
  recipient: WATCHED,
  amount: '1000',
  ...over,
});
const match = (...args: Parameters<typeof input>) => ftTransferKind.chain.match(input(...args));

describe('ft_transfer kind', () => {
  it("alerts a token movement a rule on its asset watches, with the rule's decimals and symbol", () => {
    const watch = rules({ addresses: [] }, [{ asset: SBTC, to: [WATCHED], decimals: 8, symbol: 'sBTC', name: 'sBTC in', severity: 'critical' }]);
    const [found] = match(callTx(), [ft(1, { assetId: SBTC, action: 'mint', sender: null, amount: '50000000' })], watch);
    expect(found).toEqual({
      at: { txIndex: 3, eventIndex: 1 },
      alert: expect.objectContaining({
        type: 'ft_transfer',
        key: `ft_transfer:${TX}:1`,
        asset_id: SBTC,
        action: 'mint',
        sender: null,
        recipient: WATCHED,
        address: WATCHED,
        direction: 'minted',
        amount: '50000000',
        decimals: 8,
        symbol: 'sBTC',
      }),
    });
    expect(renderSubject(found!.alert)).toBe('[stacks-watch] sBTC in: SP2C...YZR minted 0.5 sBTC (block 182,345)');
    expect(renderTerminal(found!.alert)).toContain('  Amount: 0.5 sBTC\n');
    expect(filterAttributes(found!.alert)).toEqual({
      type: 'ft_transfer',
      network: 'mainnet',
      rule: 'sBTC in',
      severity: 'critical',
      address: WATCHED,
      asset_id: SBTC,
    });
  });

  it('never alerts tokens for `addresses` alone: those watch STX', () => {
    expect(match(callTx(), [ft(0)], rules())).toEqual([]);
  });

  it('alerts at or above minAmount only', () => {
    const watch = rules({ addresses: [] }, [{ asset: DIKO, to: [WATCHED], minAmount: '1000' }]);
    expect(
      match(callTx(), [ft(0, { amount: '999' }), ft(1, { amount: '1000' }), ft(2, { amount: '123456789012345678901234567890' })], watch).map(
        (m) => m.alert.event_index,
      ),
    ).toEqual([1, 2]);
  });

  it("matches `*` rules for any token, other assets' rules never, and only the listed actions", () => {
    const any = rules({ addresses: [] }, [{ asset: '*', from: [TREASURY], actions: ['burn'] }]);
    const events = [ft(0, { sender: TREASURY, action: 'burn', recipient: null }), ft(1, { sender: TREASURY, recipient: OTHER })];
    expect(match(callTx(), events, any).map((m) => [m.alert.event_index, m.alert.direction, m.alert.address])).toEqual([[0, 'burned', TREASURY]]);
    expect(
      match(
        callTx(),
        [ft(0)],
        rules({ addresses: [] }, [
          { asset: SBTC, to: [WATCHED] },
          { asset: 'stx', to: [WATCHED] },
        ]),
      ),
    ).toEqual([]);
  });

  it('reads base units and the token name when no rule gives decimals or a symbol', () => {
    const [found] = match(callTx(), [ft(0, { amount: '1548865732' })], rules({ addresses: [] }, [{ asset: '*', to: [WATCHED] }]));
    expect(found!.alert).toMatchObject({ decimals: null, symbol: null });
    expect(renderSubject(found!.alert)).toBe('[stacks-watch] SP2C...YZR received 1548865732 diko (base units) (block 182,345)');
    expect(renderSms(found!.alert)).toContain('SP2C...YZR received 1548865732 diko (base units) blk 182345');
  });

  it('scales amounts exactly, however large, and keeps the base units a symbol alone cannot scale', () => {
    expect(formatTokenAmount('123456789012345678901234567890', 8, 'sBTC', SBTC)).toBe('1234567890123456789012.3456789 sBTC');
    expect(formatTokenAmount('100000000', 8, 'sBTC', SBTC)).toBe('1 sBTC');
    expect(formatTokenAmount('5', 0, null, SBTC)).toBe('5 sbtc-token');
    expect(formatTokenAmount('5', null, 'sBTC', SBTC)).toBe('5 sBTC base units');
  });

  it("is retracted in the token's own units, with its tracked address and asset, for subscribers filtering on either", () => {
    const [found] = match(callTx(), [ft(0)], rules({ addresses: [] }, [{ asset: DIKO, to: [WATCHED] }]));
    const retraction = retractionOf(found!.alert, 'mainnet');
    expect(retraction).toMatchObject({ retracted_type: 'ft_transfer', address: WATCHED, asset_id: DIKO });
    expect(retraction.summary).toBe(`received 1000 diko (base units) (transfer from ${OTHER} to ${WATCHED})`);
    expect(filterAttributes(retraction)).toEqual({
      type: 'retraction',
      network: 'mainnet',
      rule: `transfers:${DIKO} to ${WATCHED}`,
      severity: 'warning',
      address: WATCHED,
      asset_id: DIKO,
    });
  });
});
