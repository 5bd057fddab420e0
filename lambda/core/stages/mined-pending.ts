// Mined transactions first seen in the mempool: with pending rules, a mined call or transfer that raised a
// pending alert carries that alert's key (`pending_key`), so a reader can pair the two (docs/pending.md).
// What the mempool watch remembers is its own record, written after the scan (mempool/mempool-watch.ts):
// this stage remembers nothing across blocks itself.
import type { BlockStage } from './block-stage';

export const minedPendingStage: BlockStage<never> = {
  name: 'minedPending',
  version: 1,
  kept: 'cursor',
  open({ mempool }) {
    if (!mempool) return null;
    return {
      apply: async (_at, alerts) => ({ alerts: await mempool.markMined(alerts), state: undefined }),
      rollback: () => ({ state: undefined }),
    };
  },
};
