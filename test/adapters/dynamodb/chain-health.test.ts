// Chain health end to end below the cycle: the Hiro client on the fake API (a chain that stops, an API that
// goes stale, Bitcoin moving with no new tenure), its state in DynamoDB (dynalite), its alerts through the
// delivery stage's claims. Each run is one minute of the test's clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeHiro, ROUTES, type FakeHiro } from '../../support/fake-hiro';
import { createHiroClient } from '../../../lambda/hiro';
import { checkChainHealth } from '../../../lambda/core/health/chain-health-watch';
import { DeliveryStage } from '../../../lambda/core/deliver/delivery-stage';
import { silentTelemetry, type ChainHealthState, type RecordName, type StateStore } from '../../../lambda/core/ports';
import type { ChainHealthAlert } from '../../../lambda/core/alert-kinds/chain-health';
import { RecordingPublisher } from '../../support/recording-publisher';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();
const T0 = 1_764_160_000_000;

let fake: FakeHiro;
let server: { url: string; close(): Promise<void> };
beforeEach(async () => {
  fake = createFakeHiro();
  fake.chain.mineEmpty(5);
  server = await fake.start();
});
afterEach(async () => server.close());

/** A watcher whose runs share the table and the publisher; `store` can be swapped to crash a run. */
function watcher() {
  const client = createHiroClient({ baseUrl: server.url, maxRetries: 0, sleep: async () => {} });
  const publisher = new RecordingPublisher();
  let minute = 0;
  const clock = { now: () => T0 + minute * 60_000 };
  const sent = () => publisher.sent.map((o) => o.alert as ChainHealthAlert).map((a) => `${a.condition}:${a.phase}`);
  async function run(state: StateStore = table.store({ now: clock.now }), minutes = 1) {
    const delivery = new DeliveryStage({ state, publisher, clock, telemetry: silentTelemetry, operator: { notify: async () => {} } }, 5 * 60_000);
    const tip = (await client.getTip())!;
    await checkChainHealth({ chain: client, state, deliver: (alerts) => delivery.deliver(alerts), now: clock.now, log: () => {} }, tip, {}, 'mainnet');
    minute += minutes;
  }
  return { run, sent, publisher };
}

describe('chain health on the fake API and DynamoDB', () => {
  it('alerts "the chain stopped" once after 10 minutes without a block while Bitcoin moves, then "moving again"', async () => {
    const w = watcher();
    for (let m = 0; m < 5; m++) {
      fake.chain.mineEmpty(7);
      await w.run();
    }
    fake.chain.advanceBitcoin(1);
    for (let m = 0; m < 8; m++) await w.run(undefined, 3);
    expect(w.sent()).toEqual(['chain_stopped:started']);
    fake.chain.mineEmpty(1);
    await w.run();
    expect(w.sent()).toEqual(['chain_stopped:started', 'chain_stopped:ended']);
    const [started, ended] = w.publisher.sent.map((o) => o.alert as ChainHealthAlert);
    expect(ended!.resolves).toBe(started!.key);
  });

  it('asks the node nothing while the chain moves, once when a stall could open, and not again while it is open', async () => {
    const w = watcher();
    for (let m = 0; m < 8; m++) {
      fake.chain.mineEmpty(7);
      await w.run();
    }
    expect([fake.count(ROUTES.tip), fake.count(ROUTES.nodeInfo)]).toEqual([8, 0]);
    // Frozen: runs 3 minutes apart; the stall can open from the fourth (10 minutes), and does.
    for (let m = 0; m < 8; m++) await w.run(undefined, 3);
    expect([fake.count(ROUTES.tip), fake.count(ROUTES.nodeInfo)]).toEqual([16, 1]);
  });

  it('tells a stale API from a stopped chain: the node behind it is ahead', async () => {
    const w = watcher();
    await w.run();
    fake.chain.freezeApiTip();
    for (let m = 0; m < 5; m++) {
      fake.chain.mineEmpty(7);
      await w.run(undefined, 3);
    }
    expect(w.sent()).toEqual(['api_stale:started']);
    fake.chain.freezeApiTip(false);
    await w.run();
    expect(w.sent()).toEqual(['api_stale:started', 'api_stale:ended']);
  });

  it('says "either the chain or this API stopped" when the node answers garbage, and changes nothing else', async () => {
    const w = watcher();
    await w.run();
    fake.faults.use((r) => (r.route === ROUTES.nodeInfo ? { body: '<html>bad gateway</html>' } : undefined));
    for (let m = 0; m < 12; m++) await w.run();
    expect(w.sent()).toEqual(['chain_or_api_stopped:started']);
  });

  it('alerts no new tenure when Bitcoin is 2 blocks past the tip’s tenure while blocks still come, and ends it at the next tenure', async () => {
    const w = watcher();
    for (let m = 0; m < 21; m++) {
      fake.chain.mineEmpty(1);
      await w.run();
    }
    fake.chain.advanceBitcoin(2);
    fake.chain.mineEmpty(1);
    await w.run();
    expect(w.sent()).toEqual(['no_new_tenure:started']);
    fake.chain.newTenure();
    fake.chain.mineEmpty(1);
    await w.run();
    expect(w.sent()).toEqual(['no_new_tenure:started', 'no_new_tenure:ended']);
  });

  it('sends an alert whose run died before sending it with the next run, once', async () => {
    const w = watcher();
    await w.run();
    fake.chain.advanceBitcoin(1);
    for (let m = 0; m < 9; m++) await w.run();
    w.publisher.throwNext = new Error('the topic is down');
    await expect(w.run()).rejects.toThrow('the topic is down');
    expect(w.sent()).toEqual([]);
    for (let m = 0; m < 3; m++) await w.run();
    expect(w.sent()).toEqual(['chain_stopped:started']);
  });

  it('survives a crash between sending and clearing the outbox: nothing re-alerted, no end lost', async () => {
    const w = watcher();
    await w.run();
    fake.chain.advanceBitcoin(1);
    for (let m = 0; m < 9; m++) await w.run();
    // The run that opens the stall dies after its alerts went out, before it could record them delivered.
    const dying = table.store({ now: () => T0 + 10 * 60_000 });
    let writes = 0;
    const crashing = new Proxy(dying, {
      get: (target, name) =>
        name === 'writeRecord'
          ? async (record: RecordName, state: ChainHealthState | null) => {
              if (record === 'chainHealth' && ++writes === 2) throw new Error('crashed');
              return target.writeRecord(record, state);
            }
          : Reflect.get(target, name),
    });
    await expect(w.run(crashing)).rejects.toThrow('crashed');
    for (let m = 0; m < 5; m++) await w.run();
    expect(w.sent()).toEqual(['chain_stopped:started']);
    fake.chain.mineEmpty(1);
    await w.run();
    expect(w.sent()).toEqual(['chain_stopped:started', 'chain_stopped:ended']);
  });
});

describe('the chain health record', () => {
  it('reads back what it wrote, and refuses an item that is not JSON, naming the item', async () => {
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const store = table.store();
    const state = { version: 1 as const, tip: { height: 1, hash: '0x01', movedAt: T0, burnHeight: 925_100, burnMovedAt: T0 }, open: [], outbox: [] };
    await store.writeRecord('chainHealth', state);
    expect(await store.readRecord('chainHealth')).toEqual(state);
    await table.doc().send(new PutCommand({ TableName: table.tableName(), Item: { pk: 'NET#mainnet', sk: 'CHAIN_HEALTH', version: 1, state: '{not json' } }));
    await expect(store.readRecord('chainHealth')).rejects.toThrow(/chain health item .* is not JSON/);
  });
});
