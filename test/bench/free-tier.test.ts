import { describe, expect, it } from 'vitest';
import { totalWithAlwaysFreeTiers } from '../../bench/free-tier';
import type { MonthlyBill } from '../../bench/monthly-bill';

const bill = (lines: [string, number][]): MonthlyBill =>
  ({ lines: lines.map(([item, dollars]) => ({ resource: 'R', item, quantity: '', dollars })), total: 0, runs: 0 }) as unknown as MonthlyBill;

describe('a bill with the always-free tiers taken off', () => {
  it("takes each tier's allowance off the lines it covers, shared between them, and nothing off DynamoDB requests", () => {
    const total = totalWithAlwaysFreeTiers(
      bill([
        ['Lambda requests', 0.15],
        ['Lambda requests, watchdog ticks', 0.1], // 0.25 in all against a 0.20 allowance
        ['DynamoDB on-demand writes', 0.81],
        ['SQS requests, loop turns', 0.44], // against 0.40
        ['CloudWatch alarm (standard)', 0.1],
      ]),
    );
    expect(total).toBeCloseTo(0.05 + 0.81 + 0.04, 10);
  });
});
