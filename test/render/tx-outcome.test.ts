// How a transaction ended, in words, in every rendering of a call and a deploy: never the chain's
// `abort_by_response` alone, never a bare Clarity `(err u102)`.
import { describe, expect, it } from 'vitest';
import { failureWords, outcomeWords } from '../../lambda/core/render/tx-outcome';
import { contractCallKind } from '../../lambda/core/alert-kinds/contract-call';
import { renderEmail, renderSubject, renderTerminal } from '../../lambda/core/render';
import { contractStatus } from './alerts';

describe('failure words', () => {
  it('says what each status means', () => {
    expect(failureWords('abort_by_response', '(err u102)')).toBe('the contract refused: err u102');
    expect(failureWords('abort_by_response', null)).toBe('the contract returned an error');
    expect(failureWords('abort_by_post_condition', '(ok true)')).toMatch(/^a post-condition stopped it/);
    expect(failureWords('problematic_skipped', null)).toBe('the network skipped it as problematic');
    expect(outcomeWords('success', '(ok true)')).toBe('succeeded');
  });

  it("reads in a failed call's terminal block, email and SMS", () => {
    const call = contractCallKind.sample;
    expect(renderTerminal(call)).toContain('failed: the contract refused: err u102');
    expect(renderTerminal(call)).not.toContain('abort_by_response');
    expect(renderEmail(call)).toContain('failed: the contract refused: err u102 (abort_by_response)');
    expect(contractCallKind.sms(call)).toContain('FAILED blk 182345 by SP3K...BR9: refused: err u102');
  });

  it("reads in a failed deploy's subject", () => {
    expect(renderSubject(contractStatus({ status: 'abort_by_post_condition' }))).toContain('deploy failed: a post-condition stopped it');
  });
});
