// The fake Hiro server answers like the real API; these pin the quirks other suites rely on.
import { Cl } from '@stacks/transactions';
import { afterEach, describe, expect, it } from 'vitest';
import {
  contractCall,
  createFakeHiro,
  FakeChain,
  fakeAddress,
  fakeContractId,
  ROUTES,
  transfer,
  type FakeHiroOptions,
  type RunningFakeHiro,
} from '../support/fake-hiro';

let server: RunningFakeHiro | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: FakeHiroOptions = {}) {
  const fake = createFakeHiro(options);
  server = await fake.start();
  const url = server.url;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return { fake, get };
}

describe('fake Hiro server', () => {
  it('answers 400 with the Fastify validation body for limit above 50', async () => {
    const { fake, get } = await serve();
    fake.chain.mine([transfer({ to: fakeAddress('a'), amount: 1 })]);

    const answer = await get('/extended/v2/blocks/1/transactions?limit=51&offset=0');

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: 400,
      code: 'FST_ERR_VALIDATION',
      error: 'Bad Request',
      message: 'querystring/limit must be <= 50',
    });
  });

  it('answers 404 "Block not found" for a page at or past total', async () => {
    const { fake, get } = await serve();
    fake.chain.mine([transfer({ to: fakeAddress('a'), amount: 1 })]);

    const answer = await get('/extended/v2/blocks/1/transactions?limit=50&offset=1');

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Block not found' });
  });

  it('lists block transactions with events [] and the event_count, and a deprecation warning', async () => {
    const { fake, get } = await serve();
    fake.chain.mine([contractCall({ contractId: fakeContractId('v'), logs: ['a', 'b'] })]);

    const answer = await get('/extended/v2/blocks/1/transactions?limit=50&offset=0');

    expect(answer.body.results[0]).toMatchObject({ events: [], event_count: 2, tx_type: 'contract_call' });
    expect(answer.headers.get('warning')).toMatch(/^299 /);
  });

  it('answers 400 for a comma-separated contract_id list', async () => {
    const { get } = await serve();

    const answer = await get(`/extended/v2/smart-contracts/status?contract_id=${fakeContractId('a')},${fakeContractId('b')}`);

    expect(answer.status).toBe(400);
  });

  it("pages a transaction's events with event_limit and event_offset", async () => {
    const { fake, get } = await serve();
    const block = fake.chain.mine([contractCall({ contractId: fakeContractId('v'), logs: [Cl.uint(0), Cl.uint(1), Cl.uint(2)] })]);
    const txId = block.txs[0]!.txId;

    const answer = await get(`/extended/v1/tx/multiple?tx_id=${txId}&event_limit=2&event_offset=1`);

    expect(answer.body[txId].result.events.map((e: { event_index: number }) => e.event_index)).toEqual([1, 2]);
    expect(answer.body[txId].result.events[0].contract_log.value.repr).toBe('u1');
  });

  it('answers found:false with the tx_id for an unknown transaction', async () => {
    const { get } = await serve();
    const unknown = `0x${'ab'.repeat(32)}`;

    const answer = await get(`/extended/v1/tx/multiple?tx_id=${unknown}`);

    expect(answer.body).toEqual({ [unknown]: { found: false, result: { tx_id: unknown } } });
  });

  it('answers 304 to If-None-Match with the current tip ETag', async () => {
    const { fake, get } = await serve();
    fake.chain.mine([]);
    const first = await get('/extended');

    const second = await get('/extended', { 'if-none-match': first.headers.get('etag')! });

    expect(second.status).toBe(304);
  });

  it('enforces its rate limit with 429 and retry-after, and refills after the (scaled) window', async () => {
    // A "60 s" window of 600 real ms: three local requests fit in it even on a loaded machine (at 60 ms they
    // did not always, and the third found a new window).
    const { get } = await serve({ rateLimit: { limit: 2, windowSeconds: 60, timeScale: 0.01 } });

    const statuses = [(await get('/extended')).status, (await get('/extended')).status];
    const refused = await get('/extended');
    await new Promise((resolve) => setTimeout(resolve, 650));
    const later = await get('/extended');

    expect(statuses).toEqual([200, 200]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining-stacks-minute')).toBe('0');
    expect(later.status).toBe(200);
  });

  it('counts requests per route', async () => {
    const { fake, get } = await serve();

    await get('/extended');
    await get('/extended/v2/blocks/7');
    await get('/extended/v2/blocks/7');

    expect(fake.counts()).toEqual({ [ROUTES.tip]: 1, [ROUTES.block]: 2 });
  });
});

describe('FakeChain', () => {
  it('derives the same hashes from the same seed and different ones from another', () => {
    const a = new FakeChain({ seed: 's' });
    const b = new FakeChain({ seed: 's' });
    const c = new FakeChain({ seed: 't' });

    expect(a.mine([]).hash).toBe(b.mine([]).hash);
    expect(c.mine([]).hash).not.toBe(a.tip!.hash);
  });

  it('replaces the top blocks in a reorg with new hashes chained to the fork point', () => {
    const chain = new FakeChain();
    const [one, two, three] = chain.mineEmpty(3);
    const moved = transfer({ to: fakeAddress('a'), amount: 5 });
    const oldTx = chain.mine([moved]).txs[0]!;

    const [newThree, newFour] = chain.reorg(2, [[], [{ ...moved, txId: oldTx.txId }]]);

    expect(chain.height).toBe(4);
    expect(newThree!.hash).not.toBe(three!.hash);
    expect(newThree!.parentHash).toBe(two!.hash);
    expect(chain.block(three!.hash)).toBeUndefined();
    expect(chain.findTx(oldTx.txId)?.block).toBe(newFour);
    expect(one).toBe(chain.block(1));
  });

  it('reports a transaction from an orphaned block as not canonical', () => {
    const chain = new FakeChain();
    const tx = chain.mine([transfer({ to: fakeAddress('a'), amount: 5 })]).txs[0]!;

    chain.reorg(1, [[]]);

    expect(chain.findTx(tx.txId)?.canonical).toBe(false);
  });
});
