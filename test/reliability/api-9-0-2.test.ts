// A self-hosted API at 9.0.2: no v3 block list (9.7.0) and no principal transfer routes (9.1.0), while the
// v2 block routes and /tx/multiple still answer. The watcher reads it through the block scan, whatever fetch
// way is asked, and alerts what it alerts on the current API, field for field.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import type { FetchWay } from '../../lambda/core/follow/fetch-choice';
import {
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ROUTES,
  stxTransferEvent,
  transfer,
  type FakeChain,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { alice, vault, watcher, type Watcher } from './watched-chain';

const servers: RunningFakeHiro[] = [];
const told: { subject: string; message: string }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function script(chain: FakeChain): void {
  const other = fakeContractId('other');
  const bob = fakeAddress('bob');
  for (let i = 0; i < 8; i++) {
    chain.mine([transfer({ from: bob, to: fakeAddress(`noise-${i}`), amount: i + 1 })]);
    if (i % 3 === 0) chain.mine([transfer({ from: bob, to: alice, amount: 100 + i, memo: `inv-${i}` })]);
    if (i % 4 === 1) chain.mine([contractCall({ contractId: other, logs: [{ printer: vault, value: `via-${i}` }, `own-${i}`] })]);
    if (i % 5 === 2) chain.mine([contractCall({ contractId: vault, logs: [`direct-${i}`], events: [stxTransferEvent(vault, alice, 7 + i)] })]);
  }
}

async function alertsOn(options: Parameters<typeof createFakeHiro>[0], way: FetchWay) {
  const fake = createFakeHiro(options);
  script(fake.chain);
  const server = await fake.start();
  servers.push(server);
  const w: Watcher = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), undefined, {}, { fetchWay: way });
  await w.runUntilCaughtUp(fake.chain);
  return { fake, w, sent: w.publisher.sent.map((alert) => alert.alert) };
}

describe('a self-hosted API at 9.0.2', () => {
  for (const way of ['block-scan', 'auto', 'per-subject'] as const) {
    it(`alerts what the current API alerts, through the block scan (fetch way ${way})`, async () => {
      const current = await alertsOn({}, 'block-scan');
      const old = await alertsOn({ v3BlockShape: 'absent', subjectRoutes: 'before-9.1' }, way);
      expect(current.sent.length).toBeGreaterThan(5);
      expect(old.sent).toEqual(current.sent);
      expect(old.fake.count(ROUTES.stxTransfers)).toBe(0);
      expect(old.w.operator.notices.filter((n) => n.kind === 'stuck-block')).toEqual([]);
      if (way !== 'block-scan') {
        expect(old.w.telemetry.logs.some((l) => l.message.includes('/extended/v3/blocks') && l.message.includes('block scan'))).toBe(true);
        told.push(...old.w.operator.notices.filter((n) => n.subject.includes('per-subject route')));
      }
    });
  }

  it('tells the operator of the missing route once for each API the process reads (here two fake APIs), not on every run', () => {
    expect(told).toHaveLength(2);
    for (const notice of told) expect(notice.message).toContain('GET /extended/v3/blocks');
  });
});
