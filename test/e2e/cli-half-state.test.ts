// The local state is two files, the snapshot (--state) and its journal beside it (<state>.journal): with one
// of them gone the real CLI refuses to start, naming the file and how to start over on purpose, instead of
// starting over from startHeight in silence and sending every alert again.
import { rename, rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const alice = fakeAddress('alice');

describe('a local state with half of it gone', () => {
  const suite = cliSuite({
    name: 'half-state',
    fake: createFakeHiro({ deprecationWarnings: false }),
    config: { network: 'mainnet', addresses: [alice], startHeight: 1, confirmations: 0 },
    setup: ({ chain }) => {
      for (let i = 0; i < 9; i++) chain.mine([transfer({ to: alice, amount: 1_000 + i })]);
    },
  });

  /** A state that has sent the chain's 9 alerts: its snapshot and journal. */
  async function sentEverything(name: string): Promise<{ state: string; journal: string }> {
    const run = await suite.run(suite.args(`${name}.json`));
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toHaveLength(9);
    return { state: suite.path(`${name}.json`), journal: suite.path(`${name}.json.journal`) };
  }

  it('refuses to start when the state file is gone but its journal is there, naming both and how to start over', async () => {
    const { state, journal } = await sentEverything('no-snapshot');
    await rm(state);
    const run = await suite.run(suite.args('no-snapshot.json'));
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the state file ${state} is missing, but its journal ${journal} is there`);
    expect(run.stderr).toMatch(/Restore .*, or, to start over from startHeight on purpose \(every alert since is sent again\), move .*journal away/);
  });

  it('refuses to start when the journal is gone but the state file says one follows it', async () => {
    const { state, journal } = await sentEverything('no-journal');
    await rm(journal);
    const run = await suite.run(suite.args('no-journal.json'));
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the state journal ${journal} is missing, but the state file ${state} was written with one`);
    expect(run.stderr).toMatch(/to start over from startHeight on purpose \(every alert since is sent again\), move .*no-journal\.json away/);
  });

  it('starts over from startHeight once both files are moved away, as the refusal says', async () => {
    const { state, journal } = await sentEverything('moved');
    await rename(state, `${state}.old`);
    await rename(journal, `${journal}.old`);
    const run = await suite.run(suite.args('moved.json'));
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toHaveLength(9);
  });
});
