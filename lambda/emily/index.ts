// The Emily adapter (sBTC's public API). See docs/sbtc.md.
export { createEmilyClient, type EmilyClient, type EmilyPage } from './client';
export { createEmilyApi, type EmilyApiOptions } from './emily-api';
export { EmilyError, type EmilyErrorKind } from './errors';
export type { EmilyStats } from './http';
export { EMILY_BASE_URLS, EMILY_MAX_BODY_BYTES, type EmilyClientOptions } from './options';
