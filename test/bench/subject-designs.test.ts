import { describe, expect, it } from 'vitest';
import { countSubjectDesigns } from '../../bench/subject-designs';
import { contractCall, fakeAddress, fakeContractId, print, stxTransferEvent, transfer } from '../../test/support/fake-hiro';

const A = fakeAddress('designs-a');
const B = fakeAddress('designs-b');
const C = fakeContractId('watched', 'designs');
const D = fakeContractId('other', 'designs');
const subjects = { addresses: [A, B], contracts: [C] };

const nativeToA = () => transfer({ to: A, amount: 5 });
const printByC = () => contractCall({ contractId: C, logs: ['"hi"'] });
const payoutToB = () => contractCall({ contractId: D, events: [stxTransferEvent(D, B, 7)] });

describe('the reading designs counted from the chain (table 1e)', () => {
  it('charges an exact reader the header chain, each subject, a batch for new prints and an events read per contract payout', () => {
    const { floor } = countSubjectDesigns([[nativeToA(), printByC(), payoutToB()]], subjects, 1);
    // 1 header chain + 3 subjects + 1 batch (C's print) + 1 events read (B's payout); A's native transfer needs none.
    expect(floor).toEqual({ runs: 1, blocks: 1, requests: 6 });
  });

  it('takes one batch per 100 printing transactions of a run', () => {
    const { floor } = countSubjectDesigns([Array.from({ length: 101 }, printByC)], { addresses: [], contracts: [C] }, 1);
    expect(floor.requests).toBe(1 + 1 + 2);
  });

  it('misses what reaches a subject no transaction summary names when the transaction lists pick the subjects', () => {
    const { txList } = countSubjectDesigns([[nativeToA(), printByC(), payoutToB()]], subjects, 1);
    // A (recipient) and C (called) are named and read; B, paid by D's contract, is never read.
    expect(txList).toMatchObject({ items: 3, missed: 1, requests: 1 + 1 + 2 + 1 });
  });

  it('misses a print reached through another contract, since the summary names only the contract called', () => {
    const nested = contractCall({ contractId: D, events: [print(C, '"nested"')] });
    const { txList } = countSubjectDesigns([[nested]], { addresses: [], contracts: [C] }, 1);
    expect(txList).toMatchObject({ items: 1, missed: 1 });
  });

  it('reads a quiet subject on even runs only, and counts its news in a skipped run as late', () => {
    const blocks = [[], [nativeToA()], [], []];
    const { quiet } = countSubjectDesigns(blocks, { addresses: [A], contracts: [] }, 1, 1);
    // Run 0 reads A (nothing: quiet); run 1 skips it (late); run 2 reads A's news; run 3 reads again (no longer quiet).
    expect(quiet).toMatchObject({ requests: 2 + 1 + 2 + 2, activeSubjectRuns: 1, lateSubjectRuns: 1 });
  });
});
