import { describe, expect, it } from 'vitest';
import { MemoryChain } from '../support/memory-chain';
import { config, harness } from './harness';

const POX = 'SP000000000000000000002Q6VF78.pox-4';
const DAO = 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1';

function statusHarness() {
  const chain = new MemoryChain(100, 1);
  const h = harness(chain, config({ contracts: [POX, DAO], addresses: [], contractLogs: [] }));
  chain.statuses.set(POX, { contractId: POX, found: true, status: 'success', txId: '0xaa', blockHeight: 1 });
  return h;
}

describe('contract status watch', () => {
  it('alerts the first observation of every watched contract, found or not', async () => {
    const h = statusHarness();
    const summary = await h.run();
    expect(summary.contractsChecked).toBe(2);
    expect(h.publisher.ofType('contract_status').map((a) => a.alert)).toEqual([
      expect.objectContaining({ contract_id: POX, found: true, status: 'success', tx_id: '0xaa', block_height: 1, previous: null }),
      expect.objectContaining({ contract_id: DAO, found: false, status: null, tx_id: null, block_height: null, previous: null }),
    ]);
  });

  it('asks for the chain tip while the contract statuses are on their way, not after them', async () => {
    const h = statusHarness();
    const order: string[] = [];
    const { chain } = h;
    const getTip = chain.getTip.bind(chain);
    const getStatuses = chain.getContractStatuses.bind(chain);
    chain.getTip = () => (order.push('tip asked'), getTip());
    chain.getContractStatuses = async (ids) => {
      order.push('statuses asked');
      await new Promise((resolve) => setImmediate(resolve));
      order.push('statuses answered');
      return getStatuses(ids);
    };

    await h.run();

    expect(order.indexOf('tip asked')).toBeLessThan(order.indexOf('statuses answered'));
    expect(h.publisher.ofType('contract_status')).toHaveLength(2);
  });

  it('stays quiet while nothing changes', async () => {
    const h = statusHarness();
    await h.run();
    await h.run();
    expect(h.publisher.sent).toHaveLength(2);
  });

  it('alerts a change of status with the previous state', async () => {
    const h = statusHarness();
    h.chain.statuses.set(DAO, { contractId: DAO, found: true, status: 'pending', txId: '0xbb', blockHeight: null });
    await h.run();
    h.chain.statuses.set(DAO, { contractId: DAO, found: true, status: 'success', txId: '0xbb', blockHeight: 120 });
    await h.run();
    const last = h.publisher.sent.at(-1)!.alert;
    expect(last).toMatchObject({ contract_id: DAO, status: 'success', block_height: 120, previous: { found: true, status: 'pending' } });
  });

  it('alerts a change of deploy transaction even with the same status', async () => {
    const h = statusHarness();
    await h.run();
    h.chain.statuses.set(POX, { contractId: POX, found: true, status: 'success', txId: '0xcc', blockHeight: 1 });
    await h.run();
    expect(h.publisher.sent).toHaveLength(3);
  });

  it('alerts every change when a status flips back and forth', async () => {
    const h = statusHarness();
    await h.run();
    for (const found of [false, true, false]) {
      h.chain.statuses.set(
        POX,
        found
          ? { contractId: POX, found: true, status: 'success', txId: '0xaa', blockHeight: 1 }
          : { contractId: POX, found: false, status: null, txId: null, blockHeight: null },
      );
      await h.run();
    }
    const keys = h.publisher
      .ofType('contract_status')
      .map((a) => a.alert.key)
      .filter((k) => k.includes(POX));
    expect(keys).toEqual([1, 2, 3, 4].map((n) => `contract_status:${POX}:${n}`));
  });

  it('keeps the old status when the alert fails to publish, and alerts it once on the next run', async () => {
    const h = statusHarness();
    h.publisher.failKeys.add(`contract_status:${DAO}:1`);
    await expect(h.run()).rejects.toThrow(/could not be published/);
    expect((await h.state.readContractStatuses([POX, DAO])).size).toBe(0);
    await h.run();
    expect(h.publisher.keys()).toEqual([`contract_status:${POX}:1`, `contract_status:${DAO}:1`]);
  });

  it('checks no status in a cycle told not to (a loop turn between two due checks), and the next one told to checks them all', async () => {
    const h = statusHarness();
    const skipped = await h.run({ checkStatuses: false });
    expect(skipped.contractsChecked).toBe(0);
    expect(h.publisher.ofType('contract_status')).toEqual([]);
    expect(h.telemetry.metrics.filter((m) => m.name === 'ContractsWatched')).toEqual([]);

    const checked = await h.run({ checkStatuses: true });
    expect(checked.contractsChecked).toBe(2);
    expect(h.publisher.ofType('contract_status')).toHaveLength(2);
    expect(h.telemetry.metrics.filter((m) => m.name === 'ContractsWatched')).toEqual([{ name: 'ContractsWatched', value: 2 }]);
  });
});
