// The Hiro API adapter of the ChainApi port.
export { CHAIN_IDS, createHiroClient, CONTRACT_STATUS_BATCH, type HiroClient, type SubjectReads } from './client';
export type { ApiStats } from './http';
export { contractStatusSweep, STATUS_SHARE } from './status-share';
export { BALANCE_SHARE, balanceReadAllowance, balanceReadsPerRun } from './balance-share';
export {
  DEFAULT_BASE_URL,
  DEFAULT_BASE_URLS,
  routeMemory,
  withoutCredentials,
  type HiroClientOptions,
  type HiroLogLevel,
  type HiroRequestEvent,
  type RouteMemory,
} from './options';
export { BLOCK_PAGE_LIMIT } from './block-reader';
export { RetiredRoutes } from './deprecations';
export { EVENT_PAGE_LIMIT, MAX_URL_LENGTH } from './event-reader';
export {
  HiroApiError,
  HiroApiKeyInvalidError,
  HiroApiKeyMissingError,
  HiroBadRequestError,
  HiroConfigError,
  HiroDeadlineError,
  HiroGoneError,
  HiroInconsistentDataError,
  HiroNetworkError,
  HiroNotFoundError,
  HiroRateLimitedError,
  HiroRequestRejectedError,
  HiroResponseError,
  HiroServerError,
  HiroTimeoutError,
} from './errors';
