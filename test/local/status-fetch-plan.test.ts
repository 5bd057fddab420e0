// `--status` says how the next run would read the chain for the blocks it has to cover: the plan while Hiro's
// deprecated routes answer and once they answer 410, each with its estimate and reason.
import { describe, expect, it } from 'vitest';
import { emptyWatchConfig } from '../../lambda/config/watch-config';
import { describeStatus } from '../../lambda/local/describe';
import { fakeAddress } from '../support/fake-hiro';

const cursor = { height: 100, hash: `0x${'ab'.repeat(32)}`, time: 0 };
const base = {
  statePath: 'state.json',
  network: 'mainnet',
  config: { ...emptyWatchConfig('mainnet'), addresses: [fakeAddress('alice'), fakeAddress('bob')] },
  cursor,
  nowMs: 0,
  configPath: 'watch.json',
};

describe('--status and the fetch plan', () => {
  it('plans for the blocks between the cursor and the tip, both ways the API may answer', () => {
    const text = describeStatus({ ...base, tip: { height: 107 } } as never);

    expect(text).toContain(
      '- reading the chain, the 7 blocks the next run covers:\n' +
        "    while Hiro's deprecated routes answer: per subject (reading 2 subjects over 7 blocks costs about 4 requests, against 10 for the block scan)\n" +
        '    once they answer 410: per subject (reading 2 subjects over 7 blocks costs about 4 requests, against 113 for the block scan)\n',
    );
  });

  it('counts, for a run far behind, walking the header chain and the feeds down from the tip', () => {
    const text = describeStatus({ ...base, config: { ...base.config, maxBlocksPerRun: 10 }, tip: { height: 400 } } as never);

    expect(text).toContain(
      "    while Hiro's deprecated routes answer: the block scan (the block scan costs about 13 requests for 10 blocks, no more than the 13 of reading 2 subjects)\n",
    );
  });

  it("plans for a cycle's blocks at mainnet's pace when the state is at the tip, and says nothing without a tip", () => {
    expect(describeStatus({ ...base, tip: { height: 100 } } as never)).toContain("- reading the chain, about 7 blocks a cycle at mainnet's pace:\n");
    expect(describeStatus({ ...base, tip: { error: 'down' } } as never)).not.toContain('reading the chain');
  });
});
