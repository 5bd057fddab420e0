// Every answer is read up to a bound counted after decompression: a gzip bomb or a 50 MB body fails the
// request naming its route, and is cancelled rather than read to the end. A real HTTP server serves them.
import { createServer, type ServerResponse, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHiroClient, HiroResponseError } from '../../lambda/hiro';
import { rejectionOf } from './harness';
import { pumpBody } from '../support/pumped-body';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves `answer` to every request; returns the base URL. */
async function serve(answer: (res: ServerResponse) => void) {
  server = createServer((_req, res) => {
    res.statusCode = 200;
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const client = (baseUrl: string, maxBodyBytes?: number) =>
  createHiroClient({ baseUrl, maxRetries: 0, timeoutMs: 20_000, sleep: async () => {}, ...(maxBodyBytes ? { maxBodyBytes } : {}) });

describe('an answer past the body bound', () => {
  it('fails a gzip bomb (32 KiB that inflates to 32 MiB) naming the route, without inflating it all', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024, 0x20));
    const url = await serve((res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', 'gzip');
      res.end(bomb);
    });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);

    const error = await rejectionOf(client(url).getTip());

    expect(error).toBeInstanceOf(HiroResponseError);
    expect(error.message).toMatch(/^GET \/extended: the answer went past 16777216 bytes \(after decompression\)/);
  });

  it('refuses a declared length over the bound before reading the body', async () => {
    const url = await serve((res) => {
      res.setHeader('content-length', String(50 * 1024 * 1024));
      res.write(Buffer.from('{'));
      // never ends: only the declared length can have refused it
    });

    const error = await rejectionOf(client(url).getTip());

    expect(error.message).toContain('the answer declares 52428800 bytes');
  });

  it('fails a body streamed past the bound with no declared length, and reads no further', async () => {
    let pumped: ReturnType<typeof pumpBody> | undefined;
    const url = await serve((res) => {
      pumped = pumpBody(res, Buffer.alloc(64 * 1024, 0x20), 200 * 1024 * 1024);
    });

    const error = await rejectionOf(client(url, 1024 * 1024).getTip());

    expect(error.message).toContain('went past 1048576 bytes');
    expect(pumped!.written()).toBeLessThan(50 * 1024 * 1024);
  });
});
