// How the settled follow-up reads: a deposit minted (its amount in BTC, recipient, Bitcoin and Stacks txids with
// their links), then settled so many Bitcoin blocks deep; and its retraction, when a reorg took the print back.
import { describe, expect, it } from 'vitest';
import { retractionOf } from '../../../lambda/core/alert-kinds/retraction';
import { buildSbtcSettlement, sbtcSettlementKind } from '../../../lambda/core/alert-kinds/sbtc-settlement';
import { renderEmail, renderSms, renderSubject } from '../../../lambda/core/render';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import { deposit, prints, RECIPIENT, txid } from '../sbtc/sbtc-history';

/** A deposit followed from Emily, minted at Bitcoin block 101, told completed there and settled at 107. */
function settlements() {
  const tracker = createSbtcTracker({ settledBlocks: 6 });
  let state = tracker.initial();
  const out = [];
  for (let h = 100; h <= 110; h += 1) {
    const r = tracker.apply(state, h === 100 ? [deposit(1, 'accepted')] : h === 101 ? [prints.minted(1, 5_000)] : [], h, 5_000 + h - 101);
    state = r.state;
    out.push(...r.settlements.map((e) => ({ e, at: h })));
  }
  return out;
}

describe('sbtc_settlement alert wording', () => {
  it('tells a deposit minted in BTC, with its recipient, its Bitcoin txid and link, and when it will count as settled', () => {
    const { e } = settlements()[0]!;
    const alert = buildSbtcSettlement(e, { network: 'mainnet', height: 5_000, hash: '0xabc' });
    expect(renderSubject(alert)).toContain('sBTC deposit of 0.5 BTC minted; settled after 6 Bitcoin blocks');
    const email = renderEmail(alert);
    expect(email).toContain(RECIPIENT);
    expect(email).toContain(`https://mempool.space/tx/${txid('d1')}`);
    expect(email).toContain('0.5 BTC (50000000 sats)');
    expect(sbtcSettlementKind.attributes(alert)).toEqual({ address: RECIPIENT });
    expect(alert).toMatchObject({ severity: 'info', rule: 'watcher:sbtc_settlement', block_height: 5_000, tx_id: e.stacksTxid });
  });

  it('tells it settled once, 6 Bitcoin blocks after the block of its print', () => {
    const told = settlements().map(({ e, at }) => `${at} ${e.step}`);
    expect(told).toEqual(['101 completed', '107 settled']);
    const settled = buildSbtcSettlement(settlements()[1]!.e, { network: 'testnet', height: 5_006, hash: '0xdef' });
    expect(renderSubject(settled)).toContain('sBTC deposit of 0.5 BTC settled: minted 6 Bitcoin blocks deep');
    expect(renderSms(settled).length).toBeLessThanOrEqual(160);
  });

  it('reads as a retraction of the completion when a reorg took its print back', () => {
    const alert = buildSbtcSettlement(settlements()[0]!.e, { network: 'mainnet', height: 5_000, hash: '0xabc' });
    const retraction = retractionOf(alert, 'mainnet');
    expect(retraction).toMatchObject({ retracts: alert.key, retracted_type: 'sbtc_settlement', tx_id: alert.tx_id, address: RECIPIENT });
    expect(renderSubject(retraction)).toContain('RETRACTED: sBTC completion');
    expect(retraction.summary).toContain('sBTC deposit of 0.5 BTC minted');
  });
});
