// Reads an answer's body up to a bound, counted after decompression: fetch inflates gzip and brotli as it
// goes, so counting what it hands over bounds both what crosses the network and what a small compressed
// body (a 2 MB gzip of zeros inflates to 2 GB) can grow to in memory. Past the bound the body is cancelled,
// not read to the end.

/** The largest answer the client reads: a 50-transaction page of big contract calls is well under 1 MiB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BoundedBody = { ok: true; text: string } | { ok: false; bytes: number; declared: boolean };

export async function readBoundedBody(response: Response, maxBytes: number): Promise<BoundedBody> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, bytes: declared, declared: true };
  }
  if (!response.body) return { ok: true, text: '' };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, bytes, declared: false };
    }
    text += decoder.decode(value, { stream: true });
  }
  return { ok: true, text: text + decoder.decode() };
}
