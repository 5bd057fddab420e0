// The operator hears about Emily once per change: when it fails, when it sends unreadable records, when it recovers.
import { describe, expect, it } from 'vitest';
import { emilyNotice, type EmilyReadOutcome } from '../../../lambda/core/sbtc/emily-notices';

const down: EmilyReadOutcome = {
  error: { kind: 'server', message: 'Emily GET /deposit?status=pending: Emily answered 500 (fault 500) (3 attempts)' },
  malformed: [],
};
const well: EmilyReadOutcome = { error: null, malformed: [] };
const odd: EmilyReadOutcome = { error: null, malformed: [{ index: 2, id: 'ab:0', problem: 'deposits[2].amount: expected number, got string' }] };

function run(outcomes: EmilyReadOutcome[]): (string | null)[] {
  let problem: string | null = null;
  return outcomes.map((outcome) => {
    const told = emilyNotice(problem, outcome);
    problem = told.problem;
    return told.notice;
  });
}

describe('Emily notices', () => {
  it('tells a failure once, however many runs it lasts, and the recovery once', () => {
    const told = run([well, down, down, down, well, well]);
    expect(told.map((t) => (t === null ? null : t.split(':')[1]!.trim()))).toEqual([
      null,
      "Emily (sBTC's public API) is failing",
      null,
      null,
      'Emily answers again; the sBTC deadlines that waited for it are checked from this run.',
      null,
    ]);
    expect(told[1]).toContain('500');
  });

  it('tells the records it set aside once, naming what is wrong with them', () => {
    const told = run([odd, odd, well]);
    expect(told[0]).toContain('deposits[2].amount: expected number, got string');
    expect(told[1]).toBeNull();
    expect(told[2]).toContain('answers again');
  });

  it('tells a failure of another kind as news', () => {
    const timeout: EmilyReadOutcome = { error: { kind: 'timeout', message: 'no answer within 8000 ms' }, malformed: [] };
    expect(run([down, timeout]).every((t) => t !== null)).toBe(true);
  });
});
