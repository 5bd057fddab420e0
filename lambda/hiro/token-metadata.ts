// A token's decimals and symbol, through the token metadata API's `GET /metadata/v1/ft/{principal}` (the
// contract, without `::token`): read once per token to scale the amounts a rule writes in its unit
// (core/watch-config/token-decimals.ts). A token the API does not know (404), or an answer without usable
// decimals, is null: the config is then refused, naming the fix, rather than read at a wrong scale.
import * as z from '../zod-mini';
import type { TokenMetadata } from '../core/watch-config/token-decimals';
import type { HiroHttp } from './http';

export const TOKEN_METADATA_ROUTE = 'GET /metadata/v1/ft/{principal}';

/** Only the fields used; the API also answers name, total supply, image and more. */
const tokenMetadataSchema = z.object({
  decimals: z.int().check(z.minimum(0), z.maximum(38)),
  symbol: z.optional(z.nullable(z.string())),
});

/** A symbol fit to be a unit: printable, no spaces, at most 20 characters (a rule's own `symbol` is held to the same). */
function usableSymbol(symbol: string | null | undefined): string | undefined {
  const cut = symbol?.trim().slice(0, 20);
  return cut !== undefined && /^[\x21-\x7e]{1,20}$/.test(cut) ? cut : undefined;
}

export async function readTokenMetadata(http: HiroHttp, assetId: string): Promise<TokenMetadata | null> {
  const principal = assetId.includes('::') ? assetId.slice(0, assetId.indexOf('::')) : assetId;
  const answer = await http.get({ route: TOKEN_METADATA_ROUTE, path: `/metadata/v1/ft/${encodeURIComponent(principal)}`, expect: [404] }, z.unknown());
  if (!answer.ok) return null;
  const read = tokenMetadataSchema.safeParse(answer.body);
  if (!read.success) return null;
  const symbol = usableSymbol(read.data.symbol);
  return { decimals: read.data.decimals, ...(symbol !== undefined ? { symbol } : {}) };
}
