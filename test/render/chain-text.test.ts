import { describe, expect, it } from 'vitest';
import { decodeMemo, explorerTxUrl } from '../../lambda/core/render';
import { abbreviate, isoTime, shortPrincipal } from '../../lambda/core/render/chain-text';
import { ARKADIKO, MEMO_GM, TX_ID } from './alerts';

const padded = (hex: string) => `0x${hex}${'00'.repeat(34 - hex.length / 2)}`;

describe('decodeMemo', () => {
  it('reads a zero-padded memo as text', () => {
    expect(decodeMemo(MEMO_GM)).toEqual({ kind: 'text', text: 'gm' });
  });

  it('reads UTF-8 text, emoji included', () => {
    expect(decodeMemo(padded(Buffer.from('invoice #42 ✅').toString('hex')))).toEqual({ kind: 'text', text: 'invoice #42 ✅' });
  });

  it('says an all-zero memo is no memo', () => {
    expect(decodeMemo(padded(''))).toEqual({ kind: 'none' });
    expect(decodeMemo('0x')).toEqual({ kind: 'none' });
  });

  it('shows binary bytes as hex, without the padding', () => {
    expect(decodeMemo(padded('01ff02'))).toEqual({ kind: 'hex', hex: '0x01ff02' });
  });

  it('shows text with control characters as hex', () => {
    expect(decodeMemo(padded(Buffer.from('a\nb').toString('hex')))).toEqual({ kind: 'hex', hex: '0x610a62' });
  });

  it('shows text with a bidi override as hex', () => {
    expect(decodeMemo(padded(Buffer.from('pay\u202Eevil').toString('hex'))).kind).toBe('hex');
  });

  it('keeps a malformed memo as sanitized text rather than failing', () => {
    expect(decodeMemo('0xzz\n')).toEqual({ kind: 'hex', hex: '0xzz' });
  });
});

describe('explorerTxUrl', () => {
  it('links mainnet transactions to the mainnet explorer', () => {
    expect(explorerTxUrl(TX_ID, 'mainnet')).toBe(`https://explorer.hiro.so/txid/${TX_ID}?chain=mainnet`);
  });

  it('links testnet transactions to the testnet explorer', () => {
    expect(explorerTxUrl(TX_ID, 'testnet')).toBe(`https://explorer.hiro.so/txid/${TX_ID}?chain=testnet`);
  });

  it('cannot be turned into another URL by a hostile tx id', () => {
    expect(explorerTxUrl('0x1?chain=x#/../evil', 'mainnet')).toBe('https://explorer.hiro.so/txid/0x1%3Fchain%3Dx%23%2F..%2Fevil?chain=mainnet');
  });
});

describe('short ids and times', () => {
  it('shortens an address to its head and tail', () => {
    expect(shortPrincipal(ARKADIKO, '…')).toBe('SP2C…YZR');
  });

  it('keeps the contract name of a contract principal', () => {
    expect(shortPrincipal(`${ARKADIKO}.arkadiko-token`, '...')).toBe('SP2C...YZR.arkadiko-token');
  });

  it('leaves an id already short alone', () => {
    expect(abbreviate('0x1234', 6, 4, '…')).toBe('0x1234');
  });

  it('gives block times in UTC without milliseconds', () => {
    expect(isoTime(1714564800)).toBe('2024-05-01T12:00:00Z');
    expect(isoTime(Number.NaN)).toBe('unknown');
  });
});
