import { describe, expect, it } from 'vitest';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { renderSubject } from '../../lambda/core/render';
import { ARKADIKO, contractLog, contractStatus, deepReorg, everyAlert, retraction, transfer } from './alerts';

const PRINTABLE_ASCII_LINE = /^[\x20-\x7E]+$/;

function expectValidSubject(subject: string): void {
  expect(subject.length).toBeLessThan(100);
  expect(subject).toMatch(PRINTABLE_ASCII_LINE);
}

describe('renderSubject', () => {
  it('names the amount, the recipient and the block of a transfer', () => {
    expect(renderSubject(transfer())).toBe('[stacks-watch] 1,250.5 STX to SP2C...YZR (block 182,345)');
  });

  it('names the topic, the contract and the block of a log', () => {
    expect(renderSubject(contractLog())).toBe('[stacks-watch] print from arkadiko-token (block 182,345)');
  });

  it('names the contract and its new deployment status', () => {
    expect(renderSubject(contractStatus())).toBe('[stacks-watch] contract SP4S...PBG.stacking-dao-core-v1 deployed: success');
  });

  it('says a failed deploy failed', () => {
    expect(renderSubject(contractStatus({ status: 'abort_by_response' }))).toContain('deploy failed: its code returned an error');
  });

  it('says a contract that vanished is no longer found', () => {
    const alert = contractStatus({ found: false, status: null, tx_id: null, block_height: null });
    expect(renderSubject(alert)).toContain('no longer found');
  });

  it('starts a retraction with RETRACTED', () => {
    expect(renderSubject(retraction())).toMatch(/^\[stacks-watch\] RETRACTED: STX transfer tx 0x20de...f0eb in block 182,345/);
  });

  it('names a deep reorg and the height below which alerts are unverified', () => {
    expect(renderSubject(deepReorg())).toBe('[stacks-watch] deep reorg below block 182,218: older alerts unverified, action needed');
  });

  it('marks testnet alerts', () => {
    expect(renderSubject(transfer({ network: 'testnet' }))).toMatch(/^\[stacks-watch testnet\] /);
  });

  it('is one printable ASCII line under 100 characters for every alert type', () => {
    for (const alert of everyAlert()) expectValidSubject(renderSubject(alert));
  });

  it('stays valid for a 100 KB log value and a hostile topic', () => {
    const alert = contractLog({ value_repr: 'x'.repeat(100_000), topic: 'pr\r\nBcc: x@evil\u202Eint 🚀…' + 'y'.repeat(500) });
    const subject = renderSubject(alert);
    expectValidSubject(subject);
    expect(subject).not.toContain('\n');
  });

  it('stays valid for long ids, a huge amount and unknown statuses', () => {
    const longName = `${ARKADIKO}.${'n'.repeat(128)}`;
    const alerts: Alert[] = [
      transfer({ recipient: longName, amount: '9'.repeat(60) }),
      contractLog({ contract_id: longName }),
      contractStatus({ contract_id: longName, status: 'some_future_status_'.repeat(20) }),
      retraction({ tx_id: `0x${'ab'.repeat(500)}` }),
    ];
    for (const alert of alerts) expectValidSubject(renderSubject(alert));
  });

  it('keeps a malformed amount readable instead of failing', () => {
    const subject = renderSubject(transfer({ amount: '12.5' }));
    expect(subject).toContain('12.5 micro-STX');
  });
});
