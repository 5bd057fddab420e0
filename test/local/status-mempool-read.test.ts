// `--status` says how the next run reads the mempool for the pending rules, as that run chooses from the mempool
// record: the whole list while its cost is unmeasured, old, or no more than the principals' routes, the principals'
// own routes once the list took more pages a run; with the measure's age and the way the last run read.
import { describe, expect, it } from 'vitest';
import { emptyWatchConfig } from '../../lambda/config/watch-config';
import type { MempoolState } from '../../lambda/core/mempool/mempool-ports';
import { describeStatus } from '../../lambda/local/describe';
import { fakeAddress, fakeContractId } from '../support/fake-hiro';

const NOW = 1_800_000_000_000;
const treasury = fakeAddress('treasury');
const vault = fakeContractId('vault');
const config = {
  ...emptyWatchConfig('mainnet'),
  calls: [{ contractId: vault, functions: ['set-owner'], status: 'any', pending: true }],
  transfers: [{ asset: 'stx', to: [], from: [treasury], actions: ['transfer'], pending: true }],
};
const base = { statePath: 'state.json', network: 'mainnet', config, cursor: null, nowMs: NOW, configPath: 'watch.json', tip: { height: 100 } };

const measured = (pages: number, agoMs: number, way: 'list' | 'principals' = 'list'): MempoolState => ({
  seen: ['0x01'],
  tracked: [],
  read: { way, listPages: { pages, at: NOW - agoMs } },
});

function said(mempool: MempoolState | null | undefined, facts: object = {}): string {
  const text = describeStatus({ ...base, ...facts, ...(mempool === undefined ? {} : { mempool }) } as never);
  return text.slice(text.indexOf('- reading the mempool'), text.indexOf('pending retractions'));
}

describe('--status and the mempool', () => {
  it('reads the whole list when the principals cost no less than the pages it took a run, saying both costs', () => {
    expect(said(measured(2, 30_000))).toBe(
      '- reading the mempool for the pending rules (2 principals named), the next run:\n' +
        '    the whole list, about 2 requests: 2 principal routes cost no less than the 2 pages the list took a run\n' +
        "    the list's 2 pages a run were measured 30 s ago, and are measured again once 10 min old\n" +
        '    the last run read the whole list\n',
    );
  });

  it('measures the list again once its measure is older than ten minutes, saying how old it is', () => {
    expect(said(measured(3, 12 * 60_000, 'principals'))).toBe(
      '- reading the mempool for the pending rules (2 principals named), the next run:\n' +
        '    the whole list, 1 to 3 requests (newest first, until a transaction seen before): measuring what the list costs a run\n' +
        "    the list's last measure, 3 pages a run 12 min ago, is older than 10 min\n" +
        "    the last run read each principal's own mempool route\n",
    );
  });

  it("reads one principal's route once the list took 2 pages a run, and says a single page as one", () => {
    const one = { ...config, transfers: [] };
    expect(said(measured(2, 90_000), { config: one })).toContain(
      "    the principal's own mempool route, about 1 request: 1 principal route cost less than the 2 pages the list took a run\n",
    );
    expect(said(measured(1, 90_000), { config: one })).toContain("    the list's 1 page a run was measured 90 s ago, and is measured again once 10 min old\n");
  });

  it('says the mempool even when the tip is unknown, and nothing of it without pending rules', () => {
    expect(said(null, { tip: { error: 'down' } })).toContain('measuring what the list costs a run');
    expect(describeStatus({ ...base, config: emptyWatchConfig('mainnet') } as never)).not.toContain('mempool');
  });
});
