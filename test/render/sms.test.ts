import { describe, expect, it } from 'vitest';
import { isGsm7, renderSms, smsLength } from '../../lambda/core/render';
import { contractLog, contractStatus, deepReorg, everyAlert, MEMO_GM, retraction, transfer, TX_ID } from './alerts';

/** The explorer link ending every SMS about a transaction (mainnet is the explorer's default chain). */
const LINK = `https://explorer.hiro.so/txid/${TX_ID}`;

function expectOneGsm7Sms(sms: string): void {
  expect(isGsm7(sms)).toBe(true);
  expect(smsLength(sms).units).toBeLessThanOrEqual(160);
}

describe('renderSms', () => {
  it('gives a transfer its amount, recipient and block in plain words, then the explorer link', () => {
    expect(renderSms(transfer())).toBe(`1250.5 STX to SP2C...YZR blk 182345 from SP3K...BR9 ${LINK}`);
  });

  it('keeps the whole link and cuts the words to make room for it', () => {
    const sms = renderSms(contractLog({ value_repr: `(tuple ${'(a u1) '.repeat(200)})` }));
    expectOneGsm7Sms(sms);
    expect(sms.endsWith(` ${LINK}`)).toBe(true);
    expect(sms).toMatch(/\.\. https:/);
  });

  it("says the chain in a testnet link, and leaves mainnet to the explorer's default", () => {
    expect(renderSms(transfer({ network: 'testnet' }))).toMatch(/\?chain=testnet$/);
    expect(renderSms(transfer())).not.toContain('?chain=');
  });

  it('puts a printable memo right after the amount, where a cut never reaches it', () => {
    expect(renderSms(transfer({ memo: MEMO_GM }))).toBe(`1250.5 STX to SP2C...YZR memo: gm blk 182345 from SP3K...BR9 ${LINK}`);
  });

  it('gives a log its contract, block and as much of its value as fits before the link', () => {
    expect(renderSms(contractLog())).toBe(`print from arkadiko-token blk 182345: (tuple (action "mint") .. ${LINK}`);
  });

  it('gives a status change its before and after', () => {
    expect(renderSms(contractStatus())).toContain('deployed: success (was deploy pending)');
  });

  it('says a retraction is void because of a reorg', () => {
    expect(renderSms(retraction())).toMatch(/^RETRACTED \(reorg\): STX transfer blk 182345 is void/);
  });

  it('tells the operator about a deep reorg', () => {
    expect(renderSms(deepReorg())).toContain('DEEP REORG: fork below block 182218');
  });

  it('is one GSM-7 message of at most 160 characters for every alert type', () => {
    for (const alert of everyAlert()) expectOneGsm7Sms(renderSms(alert));
  });

  it('cuts a 100 KB log value to fit', () => {
    const sms = renderSms(contractLog({ value_repr: '(tuple '.repeat(15_000) }));
    expectOneGsm7Sms(sms);
    expect(sms.endsWith(`.. ${LINK}`)).toBe(true);
  });

  it('transliterates emoji and curly quotes so it keeps 160 characters, not 70', () => {
    const sms = renderSms(contractLog({ value_repr: `“gm” 🚀🚀 ${'a'.repeat(200)}` }));
    expectOneGsm7Sms(sms);
    expect(sms).toContain('"gm"');
    expect(sms.length).toBeGreaterThan(70);
  });

  it('strips RTL marks, bidi overrides and control characters', () => {
    const sms = renderSms(contractLog({ value_repr: 'a\u200Fb\u202Ec\u0000d\r\ne\u001bf' }));
    expectOneGsm7Sms(sms);
    expect(sms).toMatch(/: abcd ef https:/);
  });

  it('keeps HTML as plain characters', () => {
    expect(renderSms(contractLog({ value_repr: '<b>hi</b>' }))).toMatch(/: <b>hi<\/b> https:/);
  });

  it('counts extension characters as two', () => {
    const sms = renderSms(contractLog({ value_repr: '{'.repeat(300) }));
    const braces = sms.split('{').length - 1;
    expect(braces).toBeGreaterThan(10);
    expect(smsLength(sms)).toEqual({ encoding: 'GSM-7', units: sms.length + braces, limit: 160 });
    expect(sms.length + braces).toBeGreaterThanOrEqual(159);
    expect(sms.length + braces).toBeLessThanOrEqual(160);
  });

  it('marks testnet alerts that have no link to say it', () => {
    expect(renderSms(deepReorg({ network: 'testnet' }))).toMatch(/^stacks-watch testnet: /);
  });
});
