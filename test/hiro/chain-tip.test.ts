import { describe, expect, it } from 'vitest';
import { coinbase, FakeChain, ROUTES } from '../support/fake-hiro';
import { startHarness } from './harness';

describe('getTip', () => {
  it('reads the chain tip', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([coinbase()]);

    expect(await h.client().getTip()).toEqual({ height: block.height, hash: block.hash, indexBlockHash: block.indexBlockHash });
  });

  it('returns null while the API has not synced (no chain_tip)', async () => {
    const h = await startHarness({ chain: new FakeChain({ synced: false }) });
    h.fake.chain.mine([coinbase()]);

    expect(await h.client().getTip()).toBeNull();
  });

  it('sends the remembered ETag and reuses the tip on 304 Not Modified', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([coinbase()]);
    const client = h.client();

    const first = await client.getTip();
    const second = await client.getTip();

    const [, repeat] = h.fake.requestsTo(ROUTES.tip);
    expect(repeat?.headers['if-none-match']).toBe(`"${block.indexBlockHash}"`);
    expect(h.events.map((e) => e.status)).toEqual([200, 304]);
    expect(second).toEqual(first);
  });

  it('reads the new tip once the ETag no longer matches', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const client = h.client();
    await client.getTip();

    const next = h.fake.chain.mine([coinbase()]);

    expect((await client.getTip())?.hash).toBe(next.hash);
  });

  it('counts a 304 as a request', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    const client = h.client();

    await client.getTip();
    await client.getTip();

    expect(client.stats()).toMatchObject({ requests: 2, errors: 0, byEndpoint: { [ROUTES.tip]: 2 } });
  });
});
