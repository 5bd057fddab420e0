// `npm run config -- validate|push` on a file whose rules write a token's unit without its decimals, the
// token outside the shipped table: offline (the default), everything else is validated and each such token
// is named in a warning, since the function reads its decimals from the token metadata at its first run;
// with `--api URL` (or STACKS_API_URL) the decimals are read from that API now and the file validated in
// full, a token the API does not know refused as the function would refuse it.
import { decimalsAtFirstRun, isUnread, parseLeavingDecimalsToRead, parseWithTokenDecimals } from '../../lambda/config/config-token-decimals';
import type { ConfigResult } from '../../lambda/config/watch-config';
import { declaredNetwork } from '../../lambda/config/watch-config';
import type { RecordPort } from '../../lambda/core/ports';
import type { TokenMetadata } from '../../lambda/core/watch-config/token-decimals';
import type { ConfigCeilings } from '../../lambda/core/watch-config/config-ceilings';
import { createHiroClient } from '../../lambda/hiro';

/** A command's one look at the API: two short attempts, so an API out of reach is told in seconds. */
const CHECK_CLIENT = { timeoutMs: 5_000, maxRetries: 1, requestsPerMinute: 50 };

export interface TokenCheck {
  result: ConfigResult;
  /** Lines to print when the file is valid: the decimals read, or the tokens left to the first run. */
  notes: string[];
}

/** Validates `text` as the function will, reading token decimals from `apiUrl` when given. */
export async function checkWithTokenDecimals(
  text: string,
  path: string,
  ceilings: ConfigCeilings,
  apiUrl: string | undefined,
  apiKey?: string,
): Promise<TokenCheck> {
  const offline = parseLeavingDecimalsToRead(text, path, ceilings);
  if (!offline.result.ok || offline.toRead.length === 0) return { result: offline.result, notes: [] };
  if (apiUrl === undefined) {
    return {
      result: offline.result,
      notes: offline.toRead.map((asset) => decimalsAtFirstRun(asset, '--api URL reads them now, or give "decimals" in the rule')),
    };
  }
  const chain = createHiroClient({ baseUrl: apiUrl, ...CHECK_CLIENT, ...(apiKey ? { apiKey } : {}) });
  const read = new Map<string, TokenMetadata>();
  // Nothing kept: a check reads the decimals again each time, and leaves the function's state alone.
  const state: RecordPort<'tokenDecimals'> = {
    readRecord: async () => null,
    writeRecord: async (_name, tokens) => void Object.entries(tokens ?? {}).forEach(([a, m]) => read.set(a, m)),
  };
  const network = declaredNetwork(JSON.parse(text.replace(/^\uFEFF/, '')));
  const full = await parseWithTokenDecimals(text, path, { ceilings, decimalsFor: () => ({ state, chain }), ...(network ? { network } : {}) });
  if (isUnread(full)) {
    const why = `the API at ${apiUrl} did not answer (${full.unread.reason})`;
    return { result: offline.result, notes: offline.toRead.map((asset) => decimalsAtFirstRun(asset, `${why}; give "decimals" in the rule to fix them now`)) };
  }
  const notes = [...read].map(
    ([asset, m]) => `- ${asset}: ${m.decimals} decimals${m.symbol ? `, symbol ${m.symbol}` : ''}, from the token metadata at ${apiUrl}`,
  );
  return { result: full, notes };
}
