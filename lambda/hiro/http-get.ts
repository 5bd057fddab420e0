// What the Hiro and Emily clients ask of HTTP: one GET with headers and an abort signal, answered with a status,
// headers read by name and the body's bytes as they arrive, decompressed, with no redirect followed. The
// default is node-get.ts (node:http); a `fetch` given as an option (tests, the bench's latency) is adapted here
// to the same answer.

/** An answer's headers, read by name whatever its case: a fetch `Headers` is one. */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpAnswer {
  status: number;
  headers: HeaderReader;
  /** The body's bytes as they arrive, decompressed. Leaving the loop early (a break, a throw) drops the rest. */
  body: AsyncIterable<Uint8Array>;
  /** Drops the body unread: the connection is closed rather than drained. */
  cancel(): void;
}

export interface HttpGetInit {
  headers: Record<string, string>;
  /** Ends the request, or the body's read once the answer came, with the signal's reason. */
  signal: AbortSignal;
}

export type HttpGet = (url: URL, init: HttpGetInit) => Promise<HttpAnswer>;

/** `fetch` as an HttpGet: redirects are not followed (a redirect to another host would carry the X-API-Key). */
export function fetchAsGet(fetchFn: typeof fetch): HttpGet {
  return async (url, { headers, signal }) => {
    const response = await fetchFn(url, { headers, signal, redirect: 'manual' });
    const reader = response.body?.getReader();
    const next = async (): Promise<IteratorResult<Uint8Array>> => {
      const read = await reader?.read();
      return read && !read.done ? { done: false, value: read.value } : { done: true, value: undefined };
    };
    const cancel = () => void reader?.cancel().catch(() => undefined);
    const done = async (): Promise<IteratorResult<Uint8Array>> => (cancel(), { done: true, value: undefined });
    return { status: response.status, headers: response.headers, body: { [Symbol.asyncIterator]: () => ({ next, return: done }) }, cancel };
  };
}
