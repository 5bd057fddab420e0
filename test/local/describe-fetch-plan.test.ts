// `--check` says how a cycle would read the chain: the plan while Hiro's deprecated routes answer and once they
// answer 410, each with its estimate and reason.
import { describe, expect, it } from 'vitest';
import { describeWatch } from '../../lambda/local/describe';
import { fakeAddress } from '../support/fake-hiro';
import { config } from '../core/harness';

const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false, cycleSeconds: 60 };

describe('--check and the fetch plan', () => {
  it('keeps the block scan while /tx/multiple answers and reads 10 addresses per subject once it is gone', () => {
    const text = describeWatch(config({ addresses: Array.from({ length: 10 }, (_, i) => fakeAddress(`holder-${i}`)) } as never), api, 'watch.json');

    expect(text).toContain(
      "- reading the chain, about 7 blocks a cycle at mainnet's pace:\n" +
        "    while Hiro's deprecated routes answer: the block scan (the block scan costs about 10 requests for 7 blocks, no more than the 14 of reading 11 subjects)\n" +
        '    once they answer 410: per subject (reading 11 subjects over 7 blocks costs about 14 requests, against 113 for the block scan)\n',
    );
  });
});

describe('--check and the pending rules', () => {
  it('says which mempool routes the pending rules read and when, after the fetch plan, and says nothing of them without pending rules', () => {
    const treasury = fakeAddress('treasury');
    const pending = config({ transfers: [{ asset: 'stx', to: [], from: [treasury], actions: ['transfer'], pending: true }] } as never);
    expect(describeWatch(pending, api, 'watch.json')).toMatch(
      /\n {4}once they answer 410: [^\n]*\n- reading the mempool for the pending rules \(1 principal named\):\n {4}the principal's own mempool route, about 1 request a cycle, while the whole list takes 2 or more pages a cycle \(50 transactions a page\), as last measured\n/,
    );
    expect(describeWatch(config(), api, 'watch.json')).not.toContain('mempool');
  });
});
