import { describe, expect, it } from 'vitest';
import { OutageTracker } from '../../lambda/local/outage';

describe('a continuous runner through an outage', () => {
  function tracker(intervalMs = 30_000) {
    const lines: string[] = [];
    let now = 0;
    const outage = new OutageTracker(
      intervalMs,
      (level, message) => lines.push(`${level} ${message}`),
      () => now,
    );
    return { outage, lines, advance: (ms: number) => (now += ms) };
  }

  it('pauses longer after each failed cycle, up to 10 minutes', () => {
    const { outage, advance } = tracker();
    const pauses = Array.from({ length: 8 }, () => {
      const pause = outage.failed(new Error('down'));
      advance(pause);
      return pause / 1000;
    });
    expect(pauses).toEqual([30, 60, 120, 240, 480, 600, 600, 600]);
  });

  it('says so once per outage, not once per cycle, and once when it works again', () => {
    const { outage, lines, advance } = tracker();
    for (let i = 0; i < 5; i += 1) advance(outage.failed(new Error('no answer from the API')));
    outage.succeeded();
    outage.succeeded();
    const said = lines.filter((l) => !l.startsWith('debug'));
    expect(said).toEqual([
      'warn cycle failed: no answer from the API; trying again in 30 s, then with growing pauses up to 10 min (the cursor is safe; a line follows when it works again)',
      'info working again after 5 failed cycle(s) over 16 min',
    ]);
    // The next outage is a new one: said again, pauses from the start.
    expect(outage.failed(new Error('again'))).toBe(30_000);
    expect(lines.at(-1)).toMatch(/^warn cycle failed: again/);
  });

  it('never pauses less than the interval, even a long one', () => {
    const { outage } = tracker(3_600_000);
    expect(outage.failed(new Error('x'))).toBe(3_600_000);
    expect(outage.failed(new Error('x'))).toBe(3_600_000);
  });
});
