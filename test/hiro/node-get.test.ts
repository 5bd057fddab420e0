// The clients' HTTP GET on node:http against a real local server: bodies decompressed as fetch would, the body
// bound counted after decompression, an abort ending the body's read with its reason, no redirect followed,
// headers read whatever their case, and one connection kept for the next request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readBoundedBody } from '../../lambda/hiro/bounded-body';
import { createNodeGet } from '../../lambda/hiro/node-get';
import { pumpBody } from '../support/pumped-body';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

/** Serves every request with `handle`; returns the base URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const JSON_TEXT = JSON.stringify({ chain_tip: { block_height: 7 }, words: 'a '.repeat(2_000) });
const signal = () => AbortSignal.timeout(5_000);

async function text(url: string, get = createNodeGet()): Promise<{ status: number; text: string }> {
  const answer = await get(new URL(url), { headers: {}, signal: signal() });
  const body = await readBoundedBody(answer, 1024 * 1024);
  if (!body.ok) throw new Error('unexpectedly too large');
  return { status: answer.status, text: body.text };
}

describe('the node:http GET', () => {
  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ])('asks for compressed answers and reads a %s body decompressed', async (coding, compress) => {
    const asked: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      asked.push(req.headers['accept-encoding']);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(compress(Buffer.from(JSON_TEXT)));
    });

    const answer = await text(url);

    expect(asked).toEqual(['gzip, deflate, br']);
    expect(answer).toEqual({ status: 200, text: JSON_TEXT });
  });

  it('sends the headers it is given', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const url = await serve((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });

    const answer = await createNodeGet()(new URL(`${url}/extended?limit=2`), { headers: { accept: 'application/json', 'x-api-key': 'k' }, signal: signal() });
    await readBoundedBody(answer, 1024);

    expect(seen[0]).toMatchObject({ accept: 'application/json', 'x-api-key': 'k' });
  });

  it('cuts a compressed answer that inflates past the bound, reading no further than the bound', async () => {
    // A stream of gzip members, each 1 MiB of spaces in about 1 KiB: 64 MiB on the wire would inflate to 64 GiB.
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    let pumped: ReturnType<typeof pumpBody> | undefined;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      pumped = pumpBody(res, member, 64 * 1024 * 1024);
    });

    const answer = await createNodeGet()(new URL(url), { headers: {}, signal: signal() });
    const body = await readBoundedBody(answer, 4 * 1024 * 1024);

    expect(body).toMatchObject({ ok: false, declared: false });
    expect((body as { bytes: number }).bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(pumped!.written()).toBeLessThan(32 * 1024 * 1024);
  });

  it("ends a body's read with the abort's reason when aborted mid-body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial": ');
      // never ends
    });
    const controller = new AbortController();
    const reason = new Error('the run was stopped');

    const answer = await createNodeGet()(new URL(url), { headers: {}, signal: controller.signal });
    const reading = readBoundedBody(answer, 1024);
    setTimeout(() => controller.abort(reason), 20);

    await expect(reading).rejects.toBe(reason);
  });

  it('rejects with the abort reason when aborted before the answer comes', async () => {
    const url = await serve(() => {
      // never answers
    });
    const reason = new Error('timed out');

    await expect(createNodeGet()(new URL(url), { headers: {}, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const controller = new AbortController();
    const asking = createNodeGet()(new URL(url), { headers: {}, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(asking).rejects.toBe(reason);
  });

  it('returns a redirect as it is, without following it', async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/elsewhere') return void res.end('{}');
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });

    const answer = await text(`${url}/extended`);
    const headers = (await createNodeGet()(new URL(`${url}/extended`), { headers: {}, signal: signal() })).headers;

    expect(answer.status).toBe(302);
    expect(headers.get('location')).toBe('/elsewhere');
    expect(paths).toEqual(['/extended', '/extended']);
  });

  it('reads answer headers whatever the case of the name asked', async () => {
    const url = await serve((_req, res) => {
      res.setHeader('X-RateLimit-Remaining-Stacks-Minute', '42');
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });

    const { headers } = await createNodeGet()(new URL(url), { headers: {}, signal: signal() });

    expect(headers.get('x-ratelimit-remaining-stacks-minute')).toBe('42');
    expect(headers.get('X-RATELIMIT-REMAINING-STACKS-MINUTE')).toBe('42');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('retry-after')).toBeNull();
  });

  it('keeps the connection open for the next request', async () => {
    const ports: number[] = [];
    const url = await serve((req, res) => {
      ports.push(req.socket.remotePort!);
      res.end(JSON_TEXT);
    });
    const get = createNodeGet();

    await text(url, get);
    await text(url, get);

    expect(ports).toHaveLength(2);
    expect(ports[1]).toBe(ports[0]);
  });

  it('fails, naming the cause, when nothing listens', async () => {
    const url = await serve(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;

    await expect(createNodeGet()(new URL(url), { headers: {}, signal: signal() })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
