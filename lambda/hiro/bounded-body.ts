// Reads an answer's body up to a bound, counted after decompression: the transport inflates gzip and brotli as
// it goes (node-get.ts), so counting what it hands over bounds both what crosses the network and what a small
// compressed body (a 2 MB gzip of zeros inflates to 2 GB) can grow to in memory. Past the bound the body is
// dropped, not read to the end.
import type { HttpAnswer } from './http-get';

/** The largest answer the client reads: a 50-transaction page of big contract calls is well under 1 MiB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BoundedBody = { ok: true; text: string } | { ok: false; bytes: number; declared: boolean };

export async function readBoundedBody(response: Pick<HttpAnswer, 'headers' | 'body' | 'cancel'>, maxBytes: number): Promise<BoundedBody> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.cancel();
    return { ok: false, bytes: declared, declared: true };
  }
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) {
      response.cancel();
      return { ok: false, bytes, declared: false };
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return { ok: true, text: text + decoder.decode() };
}
