// A gateway that counts in a short window the client was not told about: 20 requests every 2 s, while the
// client is configured for 600 a minute (10 a second, which bursts past 20 at once). The client must learn
// the window from the headers of the answers and keep to it through a whole catch-up. The client and the gateway
// share one event clock (bench/event-clock.ts): the client's waits are taken at once whenever no request is out,
// so the gateway's windows pass in the time the requests take, however busy the machine.
import { afterEach, describe, expect, it } from 'vitest';
import { EventClock } from '../../bench/event-clock';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { coinbase, contractCall, createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { alice, canonicalAlertKeys, publishCounts, vault, watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('rate windows the gateway reports', () => {
  it('catches up 60 blocks under a 20-per-2-s window with at most two 429s, every alert once', async () => {
    const clock = new EventClock();
    const fake = createFakeHiro({ rateLimit: { limit: 20, windowSeconds: 2, clock: clock.now } });
    const bob = fakeAddress('bob');
    for (let height = 1; height <= 60; height += 1) {
      const fillers = Array.from({ length: height % 7 === 0 ? 110 : 55 }, (_, i) => transfer({ to: bob, amount: i + 1 }));
      const watched = height % 3 === 0 ? [transfer({ to: alice, amount: height })] : [];
      const logs = height % 4 === 0 ? [contractCall({ contractId: vault, logs: [`op-${height}`] })] : [];
      fake.chain.mine([coinbase(), ...fillers, ...watched, ...logs]);
    }
    server = await fake.start();
    const statuses: number[] = [];
    const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), undefined, {
      requestsPerMinute: 600,
      now: clock.now,
      sleep: clock.sleep,
      get: clock.get,
      onRequest: (event) => typeof event.status === 'number' && statuses.push(event.status),
    });

    await w.runUntilCaughtUp(fake.chain, 3);

    const throttled = statuses.filter((status) => status === 429).length;
    expect(statuses.length).toBeGreaterThan(120);
    expect(throttled).toBeLessThanOrEqual(2);
    const expected = canonicalAlertKeys(fake.chain);
    expect(expected.length).toBeGreaterThan(30);
    expect(w.publisher.keys().sort()).toEqual([...expected].sort());
    expect([...publishCounts(w.publisher).values()].every((count) => count === 1)).toBe(true);
  }, 30_000);
});
