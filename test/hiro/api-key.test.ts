import { describe, expect, it } from 'vitest';
import { HiroApiKeyInvalidError, HiroApiKeyMissingError } from '../../lambda/hiro';
import { coinbase, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const KEY = 'hiro-key-5f2b9c1e7a';

function everythingSaid(h: { logs: unknown[] }, error?: unknown): string {
  const errorParts = error instanceof Error ? [error.message, error.stack, JSON.stringify(error), JSON.stringify({ ...error })] : [];
  return [JSON.stringify(h.logs), ...errorParts].join('\n');
}

describe('API key', () => {
  it('is sent as X-API-Key on every request', async () => {
    const h = await startHarness({ apiKey: { key: KEY, required: true } });
    h.fake.chain.mine([coinbase()]);
    const client = h.client({ apiKey: KEY });

    await client.getTip();
    await client.getBlock(1);

    expect(h.fake.requests.length).toBeGreaterThan(1);
    expect(h.fake.requests.every((r) => r.headers['x-api-key'] === KEY)).toBe(true);
  });

  it('is not sent when none is configured', async () => {
    const h = await startHarness();

    await h.client().getTip();

    expect(h.fake.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('missing where required (401) says to set STACKS_API_KEY, without retrying', async () => {
    const h = await startHarness({ apiKey: { key: KEY, required: true } });

    const error = await rejectionOf(h.client().getTip());

    expect(error).toBeInstanceOf(HiroApiKeyMissingError);
    expect(error.message).toContain('Set STACKS_API_KEY');
    expect(h.fake.count()).toBe(1);
  });

  it('refused (403) says to check STACKS_API_KEY and never contains the key', async () => {
    const h = await startHarness({ apiKey: { key: 'the-right-one' } });

    const error = await rejectionOf(h.client({ apiKey: KEY }).getTip());

    expect(error).toBeInstanceOf(HiroApiKeyInvalidError);
    expect(error.message).toContain('Check STACKS_API_KEY');
    expect(everythingSaid(h, error)).not.toContain(KEY);
  });

  it('is scrubbed from a server message that echoes it', async () => {
    const h = await startHarness();
    h.fake.faults.once({ status: 403, body: { error: 'Forbidden', message: `API key ${KEY} is revoked` } });

    const error = await rejectionOf(h.client({ apiKey: KEY }).getTip());

    expect(error.message).toContain('API key [redacted] is revoked');
    expect(everythingSaid(h, error)).not.toContain(KEY);
  });

  it('never appears in log lines or errors through retries and failures', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.times(2, { status: 503, body: { error: `backend saw key ${KEY}` } }, ROUTES.tip);
    h.fake.faults.once({ status: 429, headers: { 'retry-after': '1' } }, ROUTES.tip);
    h.fake.faults.use(() => ({ status: 500, body: `<html><title>${KEY}</title></html>` }));
    const client = h.client({ apiKey: KEY, maxRetries: 4 });

    const error = await rejectionOf(client.getTip());

    expect(h.logs.length).toBeGreaterThan(0);
    expect(everythingSaid(h, error)).not.toContain(KEY);
  });

  it('is not carried along a redirect: redirects are refused, not followed', async () => {
    const h = await startHarness();
    const elsewhere = await startHarness();
    h.fake.faults.once({ status: 302, headers: { location: `${elsewhere.url}/extended` } });

    const error = await rejectionOf(h.client({ apiKey: KEY }).getTip());

    expect(error.message).toContain(`redirected to ${elsewhere.url}/extended`);
    expect(elsewhere.fake.count()).toBe(0);
  });
});
