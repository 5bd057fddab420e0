import { describe, expect, it } from 'vitest';
import { mayMoveWatched, watchedAssetsOf, type PrincipalMoves } from '../../lambda/core/follow/feed-row-moves';
import type { Transaction } from '../../lambda/core/domain';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { emptyWatchConfig } from '../../lambda/config/watch-config';

const alice = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const bob = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const call: Transaction = { txId: '0x01', txIndex: 0, txType: 'contract_call', txStatus: 'success', sender: alice, eventCount: 3, fee: '300', sponsor: null };
const stx = (sent: bigint, received: bigint, tokens = false): PrincipalMoves => ({ stx: { sent, received }, ft: tokens, nft: false });
const watchesStx = { stx: true, tokens: false };

describe("a principal's feed row decides whether a transaction's events are read", () => {
  it('reads none when the principal only paid its own fee, or a sponsored fee', () => {
    expect(mayMoveWatched(call, alice, stx(300n, 0n), watchesStx)).toBe(false);
    expect(mayMoveWatched({ ...call, sender: bob, sponsor: alice }, alice, stx(300n, 0n), watchesStx)).toBe(false);
  });

  it('reads them when STX moved beyond the fee either way, or a sponsored sender sent what the fee would be', () => {
    expect(mayMoveWatched(call, alice, stx(301n, 0n), watchesStx)).toBe(true);
    expect(mayMoveWatched(call, alice, stx(300n, 1n), watchesStx)).toBe(true);
    expect(mayMoveWatched({ ...call, sponsor: bob }, alice, stx(300n, 0n), watchesStx)).toBe(true);
  });

  it("leaves a native transfer's own movement to the transaction, and reads when the row was not given or the fee is unknown", () => {
    const native = { ...call, txType: 'token_transfer', tokenTransfer: { recipient: bob, amount: '50', memo: '0x' } };
    expect(mayMoveWatched(native, alice, stx(350n, 0n), watchesStx)).toBe(false);
    expect(mayMoveWatched(native, bob, stx(0n, 50n), watchesStx)).toBe(false);
    expect(mayMoveWatched(call, alice, undefined, watchesStx)).toBe(true);
    const { fee: _fee, ...noFee } = call;
    expect(mayMoveWatched(noFee, alice, stx(300n, 0n), watchesStx)).toBe(true);
  });

  it('reads token movements only for a principal a token rule names', () => {
    expect(mayMoveWatched(call, alice, stx(300n, 0n, true), watchesStx)).toBe(false);
    expect(mayMoveWatched(call, alice, stx(300n, 0n, true), { stx: false, tokens: true })).toBe(true);
    expect(mayMoveWatched(call, alice, { ...stx(300n, 0n), ft: null }, { stx: false, tokens: true })).toBe(true);
  });

  it('knows which assets the rules watch for a principal', () => {
    const rules = compileWatchRules({
      ...emptyWatchConfig('mainnet'),
      addresses: [alice],
      transfers: [{ asset: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.coin::coin', to: [bob], from: [], actions: ['transfer'] }],
    } as never);
    expect(watchedAssetsOf(rules, alice)).toEqual({ stx: true, tokens: false });
    expect(watchedAssetsOf(rules, bob)).toEqual({ stx: false, tokens: true });
  });
});
