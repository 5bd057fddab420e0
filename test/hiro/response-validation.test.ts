import { describe, expect, it } from 'vitest';
import { HiroResponseError } from '../../lambda/hiro';
import { coinbase, contractCall, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

type Page = { results: Record<string, unknown>[] };

function editFirstPage(edit: (page: Page) => void) {
  return {
    transform: (body: unknown) => {
      edit(body as Page);
      return body;
    },
  };
}

async function blockOf(count: number) {
  const h = await startHarness();
  const block = h.fake.chain.mine(Array.from({ length: count }, () => transfer({ to: fakeAddress('a'), amount: 1 })));
  return { h, height: block.height };
}

describe('answer validation', () => {
  it('names the endpoint and the field of a wrong type', async () => {
    const { h, height } = await blockOf(6);
    h.fake.faults.once(editFirstPage((page) => (page.results[4]!.tx_id = 12)));

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toBe(`GET /extended/v2/blocks/${height}/transactions?limit=50&offset=0: results[4].tx_id: expected string, got number`);
  });

  it('names a null where a value is required', async () => {
    const { h, height } = await blockOf(1);
    h.fake.faults.once(editFirstPage((page) => (page.results[0]!.block_hash = null)));

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error.message).toContain('results[0].block_hash: expected string, got null');
  });

  it('names a missing field', async () => {
    const { h, height } = await blockOf(1);
    h.fake.faults.once({ transform: (body) => ({ ...(body as object), total: undefined }) });

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error.message).toContain('total: missing (expected number)');
  });

  it("words a value out of range in zod's English", async () => {
    const { h, height } = await blockOf(1);
    h.fake.faults.once(editFirstPage((page) => (page.results[0]!.tx_index = -1)));

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error.message).toContain('results[0].tx_index: Too small: expected number to be >=0');
  });

  it('rejects a transfer without its token_transfer payload', async () => {
    const { h, height } = await blockOf(1);
    h.fake.faults.once(editFirstPage((page) => delete page.results[0]!.token_transfer));

    const error = await rejectionOf(h.client().getBlock(height));

    expect(error.message).toContain('results[0].token_transfer: missing for a token_transfer transaction');
  });

  it('rejects an HTML page served with status 200', async () => {
    const h = await startHarness();
    h.fake.faults.once({ body: '<!doctype html><html><body>Maintenance</body></html>' });

    const error = await rejectionOf(h.client().getTip());

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toMatch(/^GET \/extended: expected a JSON body, got an HTML page/);
  });

  it('rejects truncated JSON', async () => {
    const h = await startHarness();
    h.fake.faults.once({ body: '{"server_version":"v9","chain_tip":{"block_hei' });

    const error = await rejectionOf(h.client().getTip());

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toContain('expected a JSON body, got invalid JSON');
  });

  it('names the contract whose status entry drifted', async () => {
    const h = await startHarness();
    const id = fakeContractId('vault');
    h.fake.faults.once({ body: { [id]: { found: true, result: { status: 'success' } } } });

    const error = await rejectionOf(h.client().getContractStatuses([id]));

    expect(error.message).toContain(`["${id}"].result.tx_id: missing (expected string)`);
  });

  it('rejects a log event without its contract_log', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs: ['x'] })]);
    const txId = block.txs[0]!.txId;
    h.fake.faults.once({
      transform: (body) => {
        const entry = (body as Record<string, { result: { events: Record<string, unknown>[] } }>)[txId]!;
        delete entry.result.events[0]!.contract_log;
        return body;
      },
    });

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId, eventCount: 1 }]));

    expect(error.message).toContain(`["${txId}"].result.events[0].contract_log: missing for a smart_contract_log event`);
  });

  it('tolerates unknown fields and falls back to burn_block_time when block_time is absent', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([coinbase()]);
    h.fake.faults.once(
      editFirstPage((page) => {
        delete page.results[0]!.block_time;
        page.results[0]!.some_future_field = { nested: true };
      }),
      ROUTES.blockTransactions,
    );

    const read = await h.client().getBlock(block.height);

    expect(read?.header.time).toBe(block.burnBlockTime);
  });

  it('counts an unreadable answer as an error', async () => {
    const h = await startHarness();
    h.fake.faults.once({ body: '<html></html>' });
    const client = h.client();

    await rejectionOf(client.getTip());

    expect(client.stats()).toMatchObject({ requests: 1, errors: 1 });
  });
});
