// How a Hiro request is described: its route template (for metrics and stable names), its concrete path
// and query, and the readable name errors carry. Query values are always URL-encoded here, so ids from
// configuration cannot change the request's shape.

export interface HiroRequest {
  /** e.g. `GET /extended/v2/blocks/{height_or_hash}/transactions` */
  route: string;
  /** e.g. `/extended/v2/blocks/123/transactions`, starting with a slash, already encoded. */
  path: string;
  /** Repeated keys stay repeated (`contract_id=A&contract_id=B`), in order. */
  query?: readonly (readonly [string, string | number])[];
  headers?: Record<string, string>;
  /** Statuses answered to the caller instead of thrown (404 for "no such block", 304 for ETag). */
  expect?: readonly number[];
  /** Retries for this request, below the client's own; 0 for a read the next run makes anyway (the mempool). */
  retries?: number;
  /** Aborted: the request, waiting for its turn, in flight or between retries, gives up at once (a Ctrl-C). */
  signal?: AbortSignal;
}

export function requestUrl(baseUrl: URL, request: HiroRequest): URL {
  const url = new URL(request.path.replace(/^\//, ''), baseUrl);
  for (const [key, value] of request.query ?? []) url.searchParams.append(key, String(value));
  return url;
}

/** Longest query kept in an error's endpoint; past it the query is summarised (100 tx ids are ~7 KiB). */
const MAX_QUERY_IN_NAME = 160;

/** The readable request name errors carry: `GET /path?query`, the query shortened when long. */
export function describeRequest(request: HiroRequest): string {
  const method = request.route.split(' ')[0] ?? 'GET';
  const params = new URLSearchParams();
  for (const [key, value] of request.query ?? []) params.append(key, String(value));
  let query = params.toString();
  if (query.length > MAX_QUERY_IN_NAME) {
    const count = request.query?.length ?? 0;
    query = `${query.slice(0, MAX_QUERY_IN_NAME)}… (${count} parameters)`;
  }
  return `${method} ${request.path}${query ? `?${query}` : ''}`;
}
