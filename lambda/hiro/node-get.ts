// The Hiro and Emily clients' HTTP GET on node:http and node:https, not fetch. The first use of Node's global
// fetch, Headers or Response loads the undici it bundles, about 9.5 MB of resident memory (a tenth of a 128 MB
// function's peak), and a process's first few small GETs grow it by about 14 MB in all on fetch against 2 MB
// here, for clients that only ever send GETs; node:http is loaded already (the AWS SDK's NodeHttpHandler).
// What the clients took from fetch is done here and no more:
//  - answers are asked compressed (gzip, deflate, br) and inflated by zlib streams as they are read, so the
//    body bound (bounded-body.ts) counts bytes after decompression and cuts a gzip bomb where it passes it;
//  - the signal (the attempt's timeout, the run's deadline, the caller's abort) ends the request, or the
//    body's read once the answer came, with the signal's reason; the connection is then closed, not reused;
//  - a redirect is returned as it is: node:http follows none, so the X-API-Key never reaches another host;
//  - connections are kept alive by one agent per protocol for the process, as fetch's own pool was: a socket
//    per request in flight (the Hiro client bounds those: 4 by default, 2 in a 128 MB function; Emily: 1) and
//    at most MAX_IDLE_SOCKETS idle per host, closed after IDLE_SOCKET_MS or the server's shorter Keep-Alive.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { HeaderReader, HttpAnswer, HttpGet, HttpGetInit } from './http-get';

export const ACCEPT_ENCODING = 'gzip, deflate, br';
/** How long an idle connection is kept for the next request: Node's own global agent keeps one 5 s. */
const IDLE_SOCKET_MS = 5_000;
const MAX_IDLE_SOCKETS = 4;
/** Statuses that carry no body: nothing to inflate. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** An HttpGet with its own agents, made when first used; the clients share `nodeGet`. */
export function createNodeGet(): HttpGet {
  let plain: HttpAgent | undefined;
  let secure: HttpsAgent | undefined;
  const agentOptions = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS, timeout: IDLE_SOCKET_MS };
  return (url, init) =>
    url.protocol === 'https:'
      ? send(httpsRequest, url, init, (secure ??= new HttpsAgent(agentOptions)))
      : send(httpRequest, url, init, (plain ??= new HttpAgent(agentOptions)));
}

/** The process's HTTP GET: the clients' default when no fetch is given. */
export const nodeGet: HttpGet = createNodeGet();

type Send = (url: URL, options: RequestOptions) => ClientRequest;

function send(request: Send, url: URL, { headers, signal }: HttpGetInit, agent: HttpAgent): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const req = request(url, { agent, headers: { 'user-agent': 'stacks-watch', ...headers, 'accept-encoding': ACCEPT_ENCODING } });
    let body: Readable | undefined;
    const abort = () => {
      reject(signal.reason);
      if (body) body.destroy(signal.reason);
      else req.destroy(signal.reason);
    };
    const release = () => signal.removeEventListener('abort', abort);
    signal.addEventListener('abort', abort, { once: true });
    req.on('error', (error) => {
      release();
      reject(error);
    });
    req.on('response', (res) => {
      const read = decoded(res);
      body = read;
      // Errors reach whoever reads the body (its iterator rethrows them), never the process.
      read.on('error', () => undefined);
      read.once('close', release);
      resolve({ status: res.statusCode ?? 0, headers: headerReader(res), body: read, cancel: () => read.destroy() });
    });
    req.end();
  });
}

function headerReader(res: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = res.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The body inflated as fetch inflates it: each content coding undone, the last applied first; a coding it does
 * not know leaves the body as sent. Lenient on a truncated stream, as fetch (and curl) are: the JSON read finds it.
 */
function decoded(res: IncomingMessage): Readable {
  const codings = (res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter(Boolean)
    .reverse();
  if (codings.length === 0 || NO_BODY.has(res.statusCode ?? 0) || !codings.every((coding) => Object.hasOwn(DECODERS, coding))) return res;
  const decoders = codings.map((coding) => DECODERS[coding]!());
  return pipeline([res, ...decoders], () => undefined) as unknown as Readable;
}

const lenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => createGunzip(lenient),
  'x-gzip': () => createGunzip(lenient),
  // "deflate" is the zlib format (RFC 9110, 8.4.1.2), as servers send it.
  deflate: () => createInflate(lenient),
  br: () => createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};
