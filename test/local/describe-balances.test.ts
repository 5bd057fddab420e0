// `--check` says how many balance rules the request budget carries: the addresses a cycle reads without an API
// key and with one, and a warning past it (the rules then start over several cycles).
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import { balanceBudgetWords } from '../../lambda/local/describe-balances';
import { fakeAddress } from '../support/fake-hiro';
import { config } from '../core/harness';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false, cycleSeconds: 30 };
const rules = (count: number) => Array.from({ length: count }, (_, i) => ({ address: fakeAddress(`check-${i}`), asset: 'stx', below: '1000' }));

describe('--check and the balance reads', () => {
  it('says the balance rules all start in the first cycle when a cycle reads them all', () => {
    expect(describeWatch(config({ balances: rules(3) } as never), api, 'watch.json')).toContain(
      '- balance reads: the balance rules read 3 addresses, all in the first cycle (a cycle reads up to 5 without an API key, 50 with one: a fifth of the request budget)\n',
    );
  });

  it('warns past what a cycle reads, with how many cycles the rules take to start without a key and with one', () => {
    expect(describeWatch(config({ balances: rules(60) } as never), api, 'watch.json')).toContain(
      'warning: the balance rules read 60 addresses, more than a cycle reads (up to 5 without an API key, 50 with one: a fifth of the request budget): ' +
        'they start over 12 cycles (about 6 min) without a key, 2 cycles (60 s) with one. A rule alerts nothing until its first read; the blocks are scanned every cycle meanwhile\n',
    );
  });

  it("counts the deployed function's one-minute runs: 10 addresses without a key, 100 with one", () => {
    const words = (count: number, hasKey: boolean) =>
      balanceBudgetWords({ balances: rules(count) as never }, { requestsPerMinute: hasKey ? 500 : 50, hasKey }, { seconds: 60, word: 'run' });
    expect(words(10, false)).toMatch(/^- balance reads: .* all in the first run \(a run reads up to 10 without an API key, 100 with one/);
    expect(words(11, false)).toMatch(/^warning: .* start over 2 runs \(about 2 min\) without a key, all in the first run with one/);
    expect(words(100, true)).toMatch(/^- balance reads: the balance rules read 100 addresses, all in the first run/);
    expect(words(0, false)).toBeNull();
  });
});
