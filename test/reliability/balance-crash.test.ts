// A run killed between its balance write and its cursor write (the balance book stored with changes of blocks
// the cursor does not pass yet): the next run drops those changes, rescans the blocks, and gives the same
// answers: the crossing published once, no alert for a balance counted twice, no extra balance read; the same
// whether the v1 balances route answers or has been retired (410: the balance rebuilt from its changes).
import { describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { runCycle } from '../../lambda/core/cycle';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import { silentTelemetry } from '../../lambda/core/ports';
import { createHiroClient } from '../../lambda/hiro';
import { RecordingOperator } from '../core/harness';
import { CrashSwitch, crashingState, InjectedCrash } from '../support/crash-points';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES } from '../support/fake-hiro';
import { RecordingPublisher } from '../support/recording-publisher';

const relayer = fakeAddress('relayer');
const relay = (fee: number) => ({ ...contractCall({ contractId: fakeContractId('bridge'), sender: relayer }), feeRate: String(fee) });

describe.each([
  ['answers', false],
  ['is retired', true],
])('a crash between the balance write and the cursor write, while the v1 balances route %s', (_, retired) => {
  it('rescans the blocks from the stored cursor and gives the same alerts, once each', async () => {
    const fake = createFakeHiro();
    if (retired) fake.retire(ROUTES.balances);
    const server = await fake.start();
    try {
      fake.chain.setGenesisBalance(relayer, 'stx', 50_004_000);
      // Block 1 is history: nothing is held before it, so the watch starts at block 2 (read at 1).
      fake.chain.mine([coinbase()]);
      const parsed = parseWatchConfig({
        network: 'mainnet',
        startHeight: 2,
        balances: [{ name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000' }],
      });
      if (!parsed.ok) throw new Error('bad config');
      const config: WatchConfig = parsed.config;
      const state = new DocumentStateStore(emptyDocument('mainnet'));
      const publisher = new RecordingPublisher();
      let now = 1_800_000_000_000;
      const run = async (crash: CrashSwitch | null) => {
        now += 60_000;
        crash?.restart();
        const deps = {
          chain: createHiroClient({ baseUrl: server.url, requestsPerMinute: 100_000 }),
          state: crash ? crashingState(state, crash) : state,
          publisher,
          clock: { now: () => now },
          telemetry: silentTelemetry,
          operator: new RecordingOperator(),
        };
        return runCycle(deps, config, { runId: `run-${now}`, deadlineMs: now + 60_000, leaseTtlMs: 1_000, alertStaleAfterMs: 1_000 });
      };

      fake.chain.mine([relay(1_000)]); // 50,003,000
      await run(null);
      const crossing = fake.chain.mine([relay(2_000), relay(2_000)]); // 50,001,000 then 49,999,000
      fake.chain.mine([relay(1_000)]); // 49,998,000: no second alert
      const crash = new CrashSwitch('before moving the cursor', 1);
      await expect(run(crash)).rejects.toBeInstanceOf(InjectedCrash);
      // The book went out with the new blocks' changes; the cursor did not.
      expect((await state.readRecord('balances'))!.deltas.at(-1)!.height).toBe(4);
      expect((await state.readCursor())!.height).toBe(2);

      const after = await run(null);
      expect(after.cursor?.height).toBe(4);
      const keys = publisher.sent.map((a) => a.alert.key);
      expect(keys).toEqual([`balance_threshold:relayer gas|${relayer}|stx|50000000|:below:${crossing.txs[1]!.txId}`]);
      const book = (await state.readRecord('balances'))!;
      expect(Object.values(book.deltas.at(-1)!.entries)).toEqual([expect.objectContaining({ balance: '49998000', zone: 'below' })]);
      expect(fake.count(ROUTES.balances)).toBe(1);
    } finally {
      await server.close();
    }
  }, 30_000);
});
