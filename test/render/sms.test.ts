import { describe, expect, it } from 'vitest';
import { isGsm7, renderSms, smsLength } from '../../lambda/core/render';
import { contractLog, contractStatus, deepReorg, everyAlert, MEMO_GM, retraction, transfer } from './alerts';

function expectOneGsm7Sms(sms: string): void {
  expect(isGsm7(sms)).toBe(true);
  expect(smsLength(sms).units).toBeLessThanOrEqual(160);
}

describe('renderSms', () => {
  it('gives a transfer its amount, recipient, block and tx in one short line', () => {
    expect(renderSms(transfer())).toBe('stacks-watch: 1250.5 STX to SP2C...YZR blk 182345 tx 0x20de...f0eb from SP3K...BR9');
  });

  it('adds a printable memo to a transfer', () => {
    expect(renderSms(transfer({ memo: MEMO_GM }))).toMatch(/ memo: gm$/);
  });

  it('gives a log its contract, block, tx and value', () => {
    expect(renderSms(contractLog())).toBe(
      'stacks-watch: print from arkadiko-token blk 182345 tx 0x20de...f0eb: (tuple (action "mint") (amount u1000000))',
    );
  });

  it('gives a status change its before and after', () => {
    expect(renderSms(contractStatus())).toContain('deployed: success (was deploy pending)');
  });

  it('says a retraction is void because of a reorg', () => {
    expect(renderSms(retraction())).toMatch(/^stacks-watch: RETRACTED \(reorg\): STX transfer blk 182345 tx 0x20de...f0eb is void/);
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
    expect(sms.endsWith('..')).toBe(true);
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
    expect(sms).toMatch(/: abcd ef$/);
  });

  it('keeps HTML as plain characters', () => {
    expect(renderSms(contractLog({ value_repr: '<b>hi</b>' }))).toMatch(/: <b>hi<\/b>$/);
  });

  it('counts extension characters as two', () => {
    const sms = renderSms(contractLog({ value_repr: '{'.repeat(300) }));
    const braces = sms.split('{').length - 1;
    expect(braces).toBeGreaterThan(40);
    expect(smsLength(sms)).toEqual({ encoding: 'GSM-7', units: sms.length + braces, limit: 160 });
    expect(sms.length + braces).toBeGreaterThanOrEqual(159);
    expect(sms.length + braces).toBeLessThanOrEqual(160);
  });

  it('marks testnet alerts', () => {
    expect(renderSms(transfer({ network: 'testnet' }))).toMatch(/^stacks-watch testnet: /);
  });
});
