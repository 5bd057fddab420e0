// What an address holds at a block, through `GET /extended/v1/address/{principal}/balances?until_block=H`:
// the only balance route that answers for a past block (the v2 and v3 ones read at the tip), which a balance
// rule needs to start from exactly the block it then follows event by event (docs/rules-and-conditions.md).
import type { PrincipalBalances } from '../core/domain';
import type { HiroHttp } from './http';
import { principalBalancesSchema } from './schemas';

export const BALANCES_ROUTE = 'GET /extended/v1/address/{principal}/balances';

/** What everyone holds before block 1: nothing. */
const NOTHING_HELD: PrincipalBalances = { stxTotal: 0n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map() };

export async function readBalances(http: HiroHttp, principal: string, atHeight: number): Promise<PrincipalBalances> {
  // A rule starting at block 1 reads before it: the API answers `until_block=0` with a 400, and the answer is known.
  if (atHeight === 0) return { ...NOTHING_HELD, fts: new Map() };
  const body = await http.getBody(
    {
      route: BALANCES_ROUTE,
      path: `/extended/v1/address/${encodeURIComponent(principal)}/balances`,
      query: [['until_block', atHeight]],
    },
    principalBalancesSchema,
  );
  const locked = BigInt(body.stx.locked);
  return {
    stxTotal: BigInt(body.stx.balance),
    stxLocked: locked,
    unlockBurnHeight: locked > 0n && body.stx.burnchain_unlock_height ? body.stx.burnchain_unlock_height : null,
    fts: new Map(Object.entries(body.fungible_tokens).map(([assetId, entry]) => [assetId, BigInt(entry.balance)])),
  };
}
