// The real CLI killed (SIGKILL) between sending a cooldown's summary and recording it: the summary is marked
// sent, but the cursor, which still holds the cooldown and its 40 held matches, is not moved past the block
// that ended it. The next run rescans that block, builds the same summary, finds it sent: one summary in all.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinbase, createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { StateJournal } from '../../lambda/adapters/file/state-journal';
import type { StateDocument } from '../../lambda/adapters/file/state-document';
import { bundleCli, KillableCli, printedKeys } from './killable-cli';
import { loadCliInProcess } from '../support/cli-in-process';

const treasury = fakeAddress('treasury');
const T0 = 1_760_000_000;
/** The block whose time ends the cooldown; blocks after it keep the run scanning when it is killed. */
const ENDING = 7;

describe('the CLI killed between sending a cooldown summary and recording it', () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dir: string;
  let cliPath: string;

  beforeAll(async () => {
    fake.chain.mine([coinbase()], { time: T0 });
    fake.chain.mine([transfer({ from: treasury, to: fakeAddress('x'), amount: 1 })], { time: T0 + 10 });
    for (let b = 1; b <= 4; b++) {
      fake.chain.mine(
        Array.from({ length: 10 }, (_, i) => transfer({ from: treasury, to: fakeAddress('x'), amount: 10 * b + i })),
        { time: T0 + 60 * b },
      );
    }
    server = await fake.start();
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-cooldown-kill-'));
    cliPath = await bundleCli(dir);
    await loadCliInProcess();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the summary once in all, the rerun finding it sent', async () => {
    const config = join(dir, 'watch.json');
    const state = join(dir, 'state.json');
    await writeFile(config, JSON.stringify({ network: 'mainnet', transfers: [{ asset: 'stx', from: [treasury], cooldownMinutes: 10 }], startHeight: 1 }));
    const args = ['--once', '--json', '--config', config, '--state', state];
    // The block scan, whose reads past block 22 the stall below holds. Read per subject, the run takes every block's
    // items in one page and then nothing holds it between block 7 and its cursor: it passed only while the kill
    // beat the run's end, and failed on a loaded machine.
    const env = { STACKS_API_URL: server.url, STACKS_API_RPM: '100000', LOG_LEVEL: 'debug', FETCH_WAY: 'block-scan' };
    const cli = new KillableCli(cliPath);
    const holding = await cli.runToEnd(args, env);
    expect(holding.code, holding.stderr).toBe(0);
    expect(printedKeys(holding.stdout)).toHaveLength(1); // the first outflow; 40 held

    fake.chain.mine([coinbase()], { time: T0 + 10 + 600 }); // ENDING
    for (let i = 1; i <= 30; i++) fake.chain.mine([coinbase()], { time: T0 + 610 + 8 * i });
    // Past the first batch read ahead (blocks 7–22), the API stops answering: the killed run is still
    // scanning, its cursor unsaved (the next checkpoint is 50 blocks away).
    const stall = fake.faults.use((request) => (/\/(2[3-9]|3[0-9])(\/|$)/.test(request.path) ? { delayMs: 10_000 } : undefined));
    let killed;
    try {
      killed = await cli.run(args, env, { line: { stream: 'stderr', match: new RegExp(`block scanned \\{"blockHeight":${ENDING},`) } });
    } finally {
      stall();
    }
    expect(killed.killed, killed.stderr).toBe(true);
    const summaries = (keys: string[]) => keys.filter((k) => k.startsWith('cooldown_summary:'));
    const first = summaries(printedKeys(killed.stdout));
    expect(first).toHaveLength(1);
    const after = (await new StateJournal(state).read()) as StateDocument;
    expect(after.alerts[first[0]!]?.state).toBe('sent');
    expect(after.cursor?.height).toBe(ENDING - 1);
    expect(after.cursor?.quiet?.cooldowns[0]?.held).toBe(40);

    const rerun = await cli.runToEnd(args, env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(summaries(printedKeys(rerun.stdout))).toEqual([]);
    const done = (await new StateJournal(state).read()) as StateDocument;
    expect(done.cursor?.height).toBe(fake.chain.height);
    // No cooldown runs; the ended one stays (marked ended) only while a reorg could take its end back.
    expect(done.cursor?.quiet?.cooldowns.filter((c) => c.d === undefined) ?? []).toEqual([]);
  }, 60_000);
});
