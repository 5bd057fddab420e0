// A watcher upgraded in the middle of following a deposit, end to end on the state file: the earlier version kept
// the sBTC tracker in the cursor, under `stages.sbtcLifecycle`. The upgraded runs go on from that tracker (the
// deposit's clock is not restarted, its deadline alert goes out once at the Bitcoin block it is due) and keep it
// in its own record from the first cursor write on.
import { afterEach, describe, expect, it } from 'vitest';
import type { StateStore } from '../../lambda/core/ports';
import { startSbtcWorld, type SbtcWorld } from '../support/sbtc-world';

let world: SbtcWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The state as an earlier version left it: the tracker under the cursor's `stages`, no record of its own. */
async function asEarlierVersion(state: StateStore): Promise<void> {
  const tracker = await state.readRecord('sbtcLifecycle');
  const { version, ...position } = (await state.readCursor())!;
  await state.writeCursor({ ...position, stages: { sbtcLifecycle: { v: 1, state: tracker } } }, version);
  await state.writeRecord('sbtcLifecycle', null);
}

describe('a watcher upgraded from a version that kept the sBTC tracker in the cursor', () => {
  it('goes on from that tracker: the deposit it followed is alerted late once, at the Bitcoin block it is due', async () => {
    const w = (world = await startSbtcWorld());
    const never = w.deposit('never');
    await w.run();
    await asEarlierVersion(w.state);
    for (let step = 1; step <= 3; step++) {
      w.bitcoinBlock();
      await w.run();
      expect(w.sbtcKeys()).toEqual([]);
      if (step === 1) {
        expect((await w.state.readCursor())?.stages?.sbtcLifecycle).toBeUndefined();
        expect(Object.keys((await w.state.readRecord('sbtcLifecycle'))?.deposits ?? {})).toEqual([`${never.bitcoinTxid}:0`]);
      }
    }
    w.bitcoinBlock();
    await w.run();
    w.hiro.chain.mine([]);
    await w.run();
    expect(w.sbtcKeys()).toEqual([`sbtc:deposit_late:warning:${never.bitcoinTxid}:0`]);
  }, 30_000);
});
