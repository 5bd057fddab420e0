import { describe, expect, it } from 'vitest';
import { coinbase, FakeChain, ROUTES } from '../support/fake-hiro';
import { startHarness } from './harness';

describe('getTip', () => {
  it('reads the chain tip, with the Bitcoin block of its tenure', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([coinbase()]);

    expect(await h.client().getTip()).toEqual({
      height: block.height,
      hash: block.hash,
      indexBlockHash: block.indexBlockHash,
      burnHeight: block.burnBlockHeight,
    });
  });

  it("reads the Stacks node's own Stacks and Bitcoin tips from /v2/info, which move apart when the chain stops", async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([coinbase()]);
    h.fake.chain.advanceBitcoin(2);

    expect(await h.client().getNodeTip!()).toEqual({ stacksTipHeight: block.height, burnHeight: block.burnBlockHeight + 2 });
  });

  it('refuses a /v2/info answer without the tips, naming the fields', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.once({ body: JSON.stringify({ network_id: 1 }) }, ROUTES.nodeInfo);

    await expect(h.client().getNodeTip!()).rejects.toThrow(/stacks_tip_height or burn_block_height/);
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
