// The watch config's `windows` and `"alert": false`: each mistake named at its path with the fix
// (docs/windows.md), and the caps checked before anything runs.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { fakeAddress, fakeContractId } from '../support/fake-hiro';
import { windowsList } from '../../lambda/core/rules/window-rules';

const treasury = fakeAddress('treasury');
const vault = fakeContractId('vault');
const base = {
  network: 'mainnet',
  transfers: [{ name: 'treasury outflows', asset: 'stx', from: [treasury] }],
  calls: [{ name: 'vault failed', contractId: vault, status: 'failed' }],
  contractLogs: [{ name: 'vault prints', contractId: vault }],
};

function problems(windows: unknown[], extra: Record<string, unknown> = {}) {
  const result = parseWatchConfig({ ...base, ...extra, windows });
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('windows in the watch config', () => {
  it('takes a count window, a sum of amounts, and a sum along a log value path', () => {
    const result = parseWatchConfig({
      ...base,
      windows: [
        { name: 'failing', of: 'vault failed', minutes: 10, count: 5 },
        { name: 'drain', of: 'treasury outflows', minutes: 60, sum: 'amount', atLeast: '100000000000000000000' },
        { name: 'printed', of: 'vault prints', minutes: 30, sum: 'details.amount', atLeast: 5 },
      ],
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.windows.map((w) => w.atLeast)).toEqual([undefined, '100000000000000000000', '5']);
  });

  it('names a window\'s rule that does not exist, a sum over calls, and "amount" as the only sum of a transfer rule', () => {
    expect(
      problems([
        { name: 'a', of: 'nobody', minutes: 10, count: 2 },
        { name: 'b', of: 'vault failed', minutes: 10, sum: 'amount', atLeast: '1' },
        { name: 'c', of: 'treasury outflows', minutes: 10, sum: 'value.amount', atLeast: '1' },
        { name: 'd', of: 'a', minutes: 10, count: 2 },
      ]),
    ).toEqual([
      '$.windows[0].of: names no rule: give the rule to count a "name" and write it here (a rule of "contractLogs", "transfers", "calls" or "addressesRule")',
      '$.windows[1].sum: cannot add up the matches of $.calls[0]: its alerts carry no amount; count them with "count"',
      '$.windows[2].sum: must be "amount" for $.transfers[0]: its alerts carry the amount moved',
      '$.windows[3].of: names a window: a window counts the matches of a rule of "contractLogs", "transfers", "calls" or "addressesRule"',
    ]);
  });

  it('wants count or sum with atLeast, and a name', () => {
    expect(problems([{ name: 'a', of: 'vault failed', minutes: 10 }])).toEqual([
      '$.windows[0]: needs either "count" (at least that many matches) or "sum" with "atLeast", not both',
    ]);
    expect(problems([{ name: 'a', of: 'treasury outflows', minutes: 10, sum: 'amount' }])[0]).toContain('$.windows[0].atLeast: is required with "sum"');
    expect(problems([{ of: 'vault failed', minutes: 10, count: 2 }])[0]).toMatch(/^\$\.windows\[0\]\.name: /);
  });

  it('refuses "alert": false on a rule no window counts: its matches would go nowhere', () => {
    const quiet = { transfers: [{ name: 'treasury outflows', asset: 'stx', from: [treasury], alert: false }] };
    expect(problems([], quiet)).toEqual([
      '$.transfers[0].alert: no window counts "treasury outflows": with "alert": false its matches would go nowhere (name it in a window\'s "of", or leave "alert" out)',
    ]);
    expect(problems([{ name: 'drain', of: 'treasury outflows', minutes: 60, sum: 'amount', atLeast: '1' }], quiet)).toEqual([]);
  });

  it('caps what a window may hold: 2,000 blocks of matches, and 200 KB for all windows', () => {
    expect(problems([{ name: 'day', of: 'treasury outflows', minutes: 1440, sum: 'amount', atLeast: '1' }])).toEqual([
      '$.windows[0].minutes: would hold up to 17,280 blocks of matches (12 blocks a minute, a match in each), more than the 2,000 a window may: use at most 166 minutes',
    ]);
    // A count window holds no more than its count: a day of 5 failures is small.
    expect(problems([{ name: 'day', of: 'vault failed', minutes: 1440, count: 5 }])).toEqual([]);
    const hours = Array.from({ length: 2 }, (_, i) => ({ name: `w${i}`, of: 'treasury outflows', minutes: 160, sum: 'amount', atLeast: '1' }));
    expect(problems(hours)).toEqual([
      '$.windows: would keep up to 280 KB of counts beside the cursor, more than the 200 KB allowed: use fewer or shorter windows',
    ]);
  });

  it('words each window for --check, its base-unit threshold also in the unit its alert speaks in, saying when the counted rule sends no alerts of its own', () => {
    const result = parseWatchConfig({
      ...base,
      transfers: [{ name: 'treasury outflows', asset: 'stx', from: [treasury], alert: false }],
      windows: [
        { name: 'drain', of: 'treasury outflows', minutes: 60, sum: 'amount', atLeast: '10000000000', severity: 'critical' },
        { name: 'failing', of: 'vault failed', minutes: 10, count: 5 },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(windowsList.describe(result.config)).toBe(
      [
        "- 2 windows over other rules' matches:",
        '    "drain": the sum of amount reaches 10000000000 base units = 10,000 STX over the matches of "treasury outflows" (its own alerts not sent: "alert": false) within 60 minutes of block time, critical',
        '    "failing": 5 matches of "vault failed" within 10 minutes of block time',
      ].join('\n'),
    );
  });
});
