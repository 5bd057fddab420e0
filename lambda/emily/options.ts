// The Emily client's options and their defaults. Emily serves one network per host; its rate limits are not
// documented, so every run has a small bound of its own on requests, retries included.
import { setTimeout as wait } from 'node:timers/promises';
import type { Network } from '../core/domain';
import { fetchAsGet, type HttpGet } from '../hiro/http-get';
import { nodeGet } from '../hiro/node-get';

/** Emily's public servers (sBTC's signer configuration and docs name these hosts). */
export const EMILY_BASE_URLS = { mainnet: 'https://sbtc-emily.com', testnet: 'https://temp.sbtc-emily-dev.com' } as const;

/** The largest answer read: a 100-record page is about 100 KiB. */
export const EMILY_MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface EmilyClientOptions {
  network: Network;
  /** Overrides the network's server; http:// only for a loopback host (a local fake or proxy). */
  baseUrl?: string;
  /** Per attempt, body included, never past `deadline`. Default 8 000. */
  timeoutMs?: number;
  /** Retries after the first attempt (429, 5xx, no answer). Default 2. */
  maxRetries?: number;
  /** Requests this client sends in all, retries included: one client per run. Default 12. */
  maxRequests?: number;
  /** Records asked per list page. Default 100. */
  pageSize?: number;
  /** Default 2 MiB, counted after decompression. */
  maxBodyBytes?: number;
  /** Longest wait honoured from a Retry-After. Default 30 000. */
  maxWaitMs?: number;
  /** When the run must end, in ms since the epoch. */
  deadline?: () => number;
  /** Sends the requests instead of node:http (the Hiro client's node-get.ts), e.g. a test's stub. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  log?: (level: 'info' | 'warn', message: string, attributes?: Record<string, unknown>) => void;
}

export interface ResolvedEmilyOptions {
  baseUrl: URL;
  timeoutMs: number;
  maxRetries: number;
  maxRequests: number;
  pageSize: number;
  maxBodyBytes: number;
  maxWaitMs: number;
  timeLeftMs: () => number;
  /** node:http unless a fetch was given. */
  get: HttpGet;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  log: NonNullable<EmilyClientOptions['log']>;
}

export function resolveEmilyOptions(options: EmilyClientOptions): ResolvedEmilyOptions {
  const now = options.now ?? Date.now;
  const deadline = options.deadline;
  return {
    baseUrl: emilyBaseUrl(options.baseUrl ?? EMILY_BASE_URLS[options.network]),
    timeoutMs: whole('timeoutMs', options.timeoutMs ?? 8_000, 1),
    maxRetries: whole('maxRetries', options.maxRetries ?? 2, 0),
    maxRequests: whole('maxRequests', options.maxRequests ?? 12, 1),
    pageSize: whole('pageSize', options.pageSize ?? 100, 1),
    maxBodyBytes: whole('maxBodyBytes', options.maxBodyBytes ?? EMILY_MAX_BODY_BYTES, 1),
    maxWaitMs: whole('maxWaitMs', options.maxWaitMs ?? 30_000, 0),
    timeLeftMs: () => (deadline ? deadline() - now() : Number.POSITIVE_INFINITY),
    get: options.fetch ? fetchAsGet(options.fetch) : nodeGet,
    sleep: options.sleep ?? ((ms) => wait(ms)),
    now,
    random: options.random ?? Math.random,
    log: options.log ?? (() => undefined),
  };
}

function emilyBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Emily base URL "${raw}" is not a URL; use e.g. ${EMILY_BASE_URLS.mainnet}.`);
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error(`Emily base URL "${raw}" must be an https:// URL (http:// is accepted only for localhost, 127.x.x.x and ::1).`);
  }
  if (url.username || url.password || url.search || url.hash) throw new Error(`Emily base URL "${raw}" must carry no credentials, query or fragment.`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function whole(name: string, value: number, least: number): number {
  if (!Number.isInteger(value) || value < least) throw new Error(`Emily client option ${name} must be a whole number of at least ${least}, got ${value}.`);
  return value;
}
