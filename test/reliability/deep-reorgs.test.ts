// Reorgs of depth 1, 5, 50 and 300 through the real Hiro client against the fake API: transactions re-mined
// at other heights, some gone, some new. Every alert of the new canonical chain is sent exactly once, and
// every alerted event the new chain lost gets one retraction that reads on its own.
import { afterEach, describe, expect, it } from 'vitest';
import type { RetractionAlert } from '../../lambda/core/alert-kinds/alert';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { isGsm7, smsLength } from '../../lambda/core/render';
import { createFakeHiro, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { fork, mineForkable } from './fork-script';
import { canonicalAlertKeys, publishCounts, watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
let dynamo: LocalDynamo | undefined;
afterEach(async () => {
  await server?.close();
  await dynamo?.close();
  server = dynamo = undefined;
});

const CASES = [
  { depth: 1, store: 'document' },
  { depth: 5, store: 'document' },
  { depth: 50, store: 'document' },
  { depth: 5, store: 'DynamoDB' },
  { depth: 300, store: 'document' },
] as const;

describe('reorgs through the Hiro client', () => {
  for (const { depth, store } of CASES) {
    it(`a fork of depth ${depth} (${store} store): each alert of the new chain once, one retraction per lost event`, async () => {
      const fake = createFakeHiro();
      const placed = mineForkable(fake.chain, depth);
      server = await fake.start();
      let state;
      if (store === 'DynamoDB') {
        dynamo = await startDynalite();
        state = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet', sleep: async () => {} });
      } else state = new DocumentStateStore(emptyDocument('mainnet'));
      const w = watcher(server.url, state);
      await w.runUntilCaughtUp(fake.chain);
      const before = canonicalAlertKeys(fake.chain);
      expect(new Set(w.publisher.keys())).toEqual(new Set(before));

      const plan = fork(fake.chain, depth, placed);
      const headersBefore = fake.count(ROUTES.block);
      const [first] = await w.runUntilCaughtUp(fake.chain);
      expect(first!.reorgs).toBe(1);
      // The fork search gallops then bisects: about 2·log2(depth) header requests, not one per block.
      expect(fake.count(ROUTES.block) - headersBefore).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(depth + 1)) + 2);

      const counts = publishCounts(w.publisher);
      for (const key of canonicalAlertKeys(fake.chain)) expect(counts.get(key), key).toBe(1);
      for (const key of [...plan.moved, ...plan.fresh]) expect(counts.get(key), key).toBe(1);
      const retractions = w.publisher.ofType('retraction').map((a) => a.alert as RetractionAlert);
      expect(retractions.map((r) => r.retracts).sort()).toEqual([...plan.gone].sort());
      for (const key of plan.gone) expect(counts.get(key), key).toBe(1);
      expect(new Set(w.publisher.keys()).size).toBe(w.publisher.keys().length);
      expect(w.telemetry.sum('DeepReorgs')).toBe(0);
    });
  }

  it('a retraction names what it retracts and carries its essentials, in a readable email and one GSM-7 SMS', async () => {
    const fake = createFakeHiro();
    const placed = mineForkable(fake.chain, 1);
    server = await fake.start();
    const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')));
    await w.runUntilCaughtUp(fake.chain);
    const original = w.publisher.ofType('token_transfer')[0]!.alert;
    const plan = fork(fake.chain, 1, placed);
    await w.runUntilCaughtUp(fake.chain);
    expect(plan.gone).toContain(original.key);

    const sent = w.publisher.ofType('retraction').find((a) => (a.alert as RetractionAlert).retracts === original.key)!;
    expect(sent.alert).toMatchObject({
      type: 'retraction',
      retracts: original.key,
      retracted_type: 'token_transfer',
      tx_id: (original as { tx_id: string }).tx_id,
      block_height: (original as { block_height: number }).block_height,
      block_hash: (original as { block_hash: string }).block_hash,
      recipient: (original as { recipient: string }).recipient,
      summary: expect.stringMatching(/^[\d,.]+ STX from /),
    });
    expect(sent.rendering.subject).toMatch(/RETRACTED/);
    expect(sent.rendering.email).toContain(original.key);
    expect(sent.rendering.email).toMatch(/reorg/i);
    expect(isGsm7(sent.rendering.sms)).toBe(true);
    expect(smsLength(sent.rendering.sms).units).toBeLessThanOrEqual(160);
    expect(sent.rendering.sms).toMatch(/RETRACTED/);
  });
});
