// How an sBTC lifecycle alert reads: the amount in BTC as people say it, the Bitcoin and Stacks txids with their
// explorer links, the recipient, and how many blocks late.
import { describe, expect, it } from 'vitest';
import { sbtcLifecycleKind } from '../../../lambda/core/alert-kinds/sbtc-lifecycle';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import { renderEmail, renderSms, renderSubject } from '../../../lambda/core/render';
import { deposit, prints, RECIPIENT, SENDER, txid } from '../sbtc/sbtc-history';

function eventsAt(observations: Parameters<ReturnType<typeof createSbtcTracker>['apply']>[1][], from: number, to: number) {
  const tracker = createSbtcTracker();
  let state = tracker.initial();
  const out = [];
  for (let h = from; h <= to; h += 1) {
    const r = tracker.apply(state, observations[h - from] ?? [], h);
    state = r.state;
    out.push(...r.events);
  }
  return out;
}

describe('sbtc_lifecycle alert wording', () => {
  it('names a late deposit in BTC, with its Bitcoin txid and link, the recipient and how late it is', () => {
    const [, critical] = eventsAt([[deposit(1, 'pending', { amountSats: 50_000_000n })]], 100, 107);
    const alert = sbtcLifecycleKind.build(critical!, 'mainnet');
    expect(renderSubject(alert)).toContain('sBTC deposit of 0.5 BTC not minted 6 Bitcoin blocks after confirmation');
    const email = renderEmail(alert);
    expect(email).toContain(`https://mempool.space/tx/${txid('d1')}`);
    expect(email).toContain(RECIPIENT);
    expect(email).toMatch(/Due at block: +107 \(0 blocks late\)/);
    expect(email).toContain('0.5 BTC (50000000 sats)');
    expect(alert.severity).toBe('critical');
  });

  it('names a rejected withdrawal with its Stacks transaction and explorer link, and its sender', () => {
    const reject = prints.rejected(4);
    const events = eventsAt([[prints.created(4, 200)], [], [reject]], 200, 202);
    const alert = sbtcLifecycleKind.build(events[0]!, 'testnet');
    expect(renderSubject(alert)).toContain('sBTC withdrawal #4 of 0.25 BTC rejected by the signers');
    const email = renderEmail(alert);
    expect(email).toContain(`https://explorer.hiro.so/txid/${(reject as { stacksTxid: string }).stacksTxid}?chain=testnet`);
    expect(email).toContain(SENDER);
    expect(sbtcLifecycleKind.attributes(alert)).toEqual({ address: SENDER });
    expect(renderSms(alert).length).toBeLessThanOrEqual(160);
  });

  it('writes a fraction of a satoshi nowhere: 1 sat is 0.00000001 BTC', () => {
    const [warning] = eventsAt([[deposit(2, 'accepted', { amountSats: 1n })]], 100, 103);
    expect(renderSubject(sbtcLifecycleKind.build(warning!, 'mainnet'))).toContain('0.00000001 BTC');
  });
});
