// The window stage and its state, block by block: aging out by block time, a rollback that restores what the
// replaced blocks had aged out, and the bounds (entries past the reorg margin dropped, transaction ids kept
// only where a rollback could list them). End to end: test/e2e/cli-windows.test.ts.
import { describe, expect, it } from 'vitest';
import type { ChainAlert } from '../../lambda/core/alert-kinds/alert';
import type { CompiledWindows } from '../../lambda/core/rules/window-rules';
import type { BlockHeader } from '../../lambda/core/domain';
import { advanceWindows } from '../../lambda/core/stages/window-stage';
import { rollbackWindows, WINDOW_REORG_MARGIN_BLOCKS, WINDOW_TX_IDS, type WindowStates } from '../../lambda/core/stages/window-state';

const header = (height: number, time: number): BlockHeader => ({ height, hash: `0x${height}`, parentHash: `0x${height - 1}`, time }) as BlockHeader;
const matches = (height: number, n: number, rule = 'failures', amount = '1'): ChainAlert[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'stx_transfer', key: `m${height}-${i}`, rule, tx_id: `0xtx${height}-${i}`, amount }) as unknown as ChainAlert);

const count = (threshold: number, minutes = 10): CompiledWindows => ({
  windows: [{ name: 'w', of: 'failures', minutes, sum: null, threshold: BigInt(threshold), unit: null, severity: 'critical' }],
  countOnly: new Set(),
});

/** Feeds blocks [height, time, matches] through the stage; returns the crossing heights and the state. */
function feed(compiled: CompiledWindows, blocks: [number, number, number][], from?: WindowStates) {
  let states = from;
  const crossed: number[] = [];
  for (const [height, time, n] of blocks) {
    const out = advanceWindows(compiled, states, header(height, time), matches(height, n), 'mainnet');
    states = out.states;
    crossed.push(...out.alerts.map((a) => a.block_height));
  }
  return { crossed, states: states! };
}

describe('windows over blocks', () => {
  it('ages matches out by block time: a window 10 minutes long no longer counts a block 600 s older', () => {
    const { crossed } = feed(count(3), [
      [1, 0, 2],
      [2, 599, 1], // 3 within 10 minutes: crosses
      [3, 600, 0], // block 1 ages out: 1, below
      [4, 610, 2], // 3 again: crosses again
    ]);
    expect(crossed).toEqual([2, 4]);
  });

  it("takes a rolled-back block's matches out and counts again what the replaced blocks had aged out", () => {
    const before = feed(count(3), [
      [1, 0, 2],
      [2, 100, 0],
      [3, 700, 0], // block 1 aged out here
    ]).states;
    expect(before.w!.entries[0]!.d).toBe(3);
    const { states } = rollbackWindows(before, 2);
    expect(states!.w!.entries).toEqual([expect.not.objectContaining({ d: expect.anything() })]);
    // On the new chain block 3 comes sooner: block 1 still counts, and one more match crosses.
    expect(feed(count(3), [[3, 150, 1]], states).crossed).toEqual([3]);
  });

  it('drops what stopped counting once the scan is past the reorg margin, and says a deeper rollback is inexact', () => {
    const blocks: [number, number, number][] = [[1, 0, 1]];
    for (let h = 2; h <= 3 + WINDOW_REORG_MARGIN_BLOCKS; h += 1) blocks.push([h, 600 + h, 0]);
    const { states } = feed(count(3), blocks);
    expect(states.w!.entries).toEqual([]);
    expect(rollbackWindows(states, 1).inexact).toEqual(['w']);
    expect(rollbackWindows(states, 2 + WINDOW_REORG_MARGIN_BLOCKS).inexact).toEqual([]);
  });

  it('keeps a count window to the newest matches it needs, and transaction ids to what a rollback could list', () => {
    const blocks: [number, number, number][] = [];
    for (let h = 1; h <= 200; h += 1) blocks.push([h, h, 30]);
    const { states } = feed(count(5, 1440), blocks);
    expect(states.w!.entries.length).toBeLessThanOrEqual(1 + WINDOW_REORG_MARGIN_BLOCKS + 1);
    const ids = states.w!.entries.reduce((n, e) => n + e.tx.length, 0);
    expect(ids).toBeLessThanOrEqual(WINDOW_TX_IDS * (WINDOW_REORG_MARGIN_BLOCKS + 2));
  });

  it('adds amounts as bigints past 2^53, and leaves a rule with "alert": false out of what is sent', () => {
    const compiled: CompiledWindows = {
      windows: [{ name: 'drain', of: 'outflows', minutes: 60, sum: 'amount', threshold: 10n ** 19n, unit: null, severity: 'critical' }],
      countOnly: new Set(['outflows']),
    };
    const first = advanceWindows(compiled, undefined, header(1, 0), matches(1, 1, 'outflows', '9007199254740993000'), 'mainnet');
    const second = advanceWindows(
      compiled,
      first.states,
      header(2, 60),
      [...matches(2, 1, 'outflows', '992800745259007000'), ...matches(2, 1, 'other')],
      'mainnet',
    );
    expect(first.alerts).toEqual([]);
    expect(second.alerts.map((a) => a.sum)).toEqual(['10000000000000000000']);
    expect(second.sent.map((a) => a.rule)).toEqual(['other']);
  });

  it("adds a log's decoded value along its path, and skips a log without an integer there", () => {
    const log = (key: string, value: unknown) => ({ type: 'contract_log', key, rule: 'prints', tx_id: `0x${key}`, value }) as unknown as ChainAlert;
    const compiled: CompiledWindows = {
      windows: [{ name: 'printed', of: 'prints', minutes: 60, sum: 'details.amount', threshold: 10n, unit: null, severity: 'warning' }],
      countOnly: new Set(),
    };
    const out = advanceWindows(
      compiled,
      undefined,
      header(1, 0),
      [log('a', { details: { amount: '6' } }), log('b', { details: { amount: 'lots' } }), log('c', { other: 1 }), log('d', { details: { amount: '4' } })],
      'mainnet',
    );
    expect(out.alerts.map((a) => [a.sum, a.count, a.tx_id])).toEqual([['10', 2, '0xd']]);
  });
});
