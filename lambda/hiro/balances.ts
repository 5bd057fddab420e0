// What an address holds at a block, which a balance rule needs to start from exactly the block it then follows
// event by event (docs/balances.md). First `GET /extended/v1/address/{principal}/balances?until_block=H`, the
// only route that answers for a past block, in one request; once it answers 410 Gone (deprecated, retired by
// Hiro), the balance now less the changes since (past-balances.ts, three requests or more) for the rest of the
// process's life, the operator told once a day like any retired route.
import type { PrincipalBalances } from '../core/domain';
import { withSuccessor } from './deprecations';
import type { HiroHttp } from './http';
import type { ResolvedHiroOptions } from './options';
import { readBalancesFromChanges } from './past-balances';
import { principalBalancesSchema } from './schemas';

export const BALANCES_ROUTE = 'GET /extended/v1/address/{principal}/balances';

/** What everyone holds before block 1: nothing. */
const NOTHING_HELD: PrincipalBalances = { stxTotal: 0n, stxLocked: 0n, unlockBurnHeight: null, fts: new Map() };

/** What `principal` holds after block `atHeight`, in `assets` at least (every asset while the v1 route answers). */
export async function readPastBalances(
  http: HiroHttp,
  principal: string,
  atHeight: number,
  assets: readonly string[],
  log: ResolvedHiroOptions['log'],
): Promise<PrincipalBalances> {
  // A rule starting at block 1 reads before it: the API answers `until_block=0` with a 400, and the answer is known.
  if (atHeight === 0) return { ...NOTHING_HELD, fts: new Map() };
  return withSuccessor(
    http.deprecations,
    BALANCES_ROUTE,
    () => readBalances(http, principal, atHeight),
    () => readBalancesFromChanges(http, principal, atHeight, assets),
    log,
  );
}

export async function readBalances(http: HiroHttp, principal: string, atHeight: number): Promise<PrincipalBalances> {
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
