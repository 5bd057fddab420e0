// What a new watch config version means to a running watcher (docs/watch-config-store.md): the cycle reads
// the config it is given each run; the cursor, pending retractions and contract statuses carry over.
import { describe, expect, it } from 'vitest';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { coinbase, MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, OTHER, TOKEN, WATCHED } from './harness';

describe('a new watch config version between runs', () => {
  it('watches a rule added from the cursor on, with no backfill of blocks already scanned', async () => {
    const chain = new MemoryChain(100, 1);
    const before = transfer(OTHER, '5');
    chain.mine([before]); // 101, scanned while OTHER is not watched
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    const after = transfer(OTHER, '6');
    chain.mine([after]); // 102
    await h.run({}, config({ startHeight: 100, addresses: [WATCHED, OTHER] }));
    expect(h.publisher.keys()).toEqual([`token_transfer:${after.txId}`]);
  });

  it('stops alerting a rule removed, yet still sends the retractions its alerts have pending', async () => {
    const chain = new MemoryChain(100, 1);
    const gone = transfer(WATCHED, '1000000');
    chain.mine([gone]); // 101
    chain.mine([coinbase()]); // 102
    const h = harness(chain, config({ startHeight: 100 }));
    await h.run();
    chain.reorg(2, [[coinbase()]]); // gone is off the chain: its alert waits to be retracted
    await h.run();
    expect((await h.state.readCursor())?.pendingRetractions?.keys).toEqual([`token_transfer:${gone.txId}`]);

    const withoutRule = config({ startHeight: 100, addresses: [] });
    const later = transfer(WATCHED, '7');
    chain.mine([later]);
    for (let i = 0; i < RETRACTION_GRACE_BLOCKS + 1; i++) chain.mine([coinbase()]);
    await h.run({}, withoutRule);
    expect(h.publisher.ofType('retraction').map((a) => a.alert)).toEqual([
      expect.objectContaining({ type: 'retraction', retracts: `token_transfer:${gone.txId}` }),
    ]);
    expect(h.publisher.keys()).not.toContain(`token_transfer:${later.txId}`);
  });

  it('gives a contract added to `contracts` its first-observation alert, and none again for those already seen', async () => {
    const chain = new MemoryChain(100, 1);
    const seen = 'SP000000000000000000002Q6VF78.pox-5';
    chain.statuses.set(seen, { contractId: seen, found: true, status: 'success', txId: '0x01', blockHeight: 1 });
    chain.statuses.set(TOKEN, { contractId: TOKEN, found: true, status: 'success', txId: '0x02', blockHeight: 2 });
    const h = harness(chain, config({ startHeight: 100, contracts: [seen] }));
    await h.run();
    chain.mine([coinbase()]);
    await h.run({}, config({ startHeight: 100, contracts: [seen, TOKEN] }));
    expect(h.publisher.keys().filter((key) => key.startsWith('contract_status:'))).toEqual([`contract_status:${seen}:1`, `contract_status:${TOKEN}:1`]);
  });
});
