// `sbtcLifecycle`: the sBTC deposit and withdrawal deadline alerts (core/sbtc, stages/sbtc-lifecycle.ts). Off
// unless the key is there: watching the sbtc-registry's prints does not by itself ask for deadline alerts, so a
// config says it wants them (the `sbtc-bridge` pack does). `{}` follows every deposit and withdrawal of mainnet's
// registry; `recipients` and `senders` narrow it to a wallet's own, `settled` adds the settled follow-up, and
// `deployer` names the deployment whose registry is followed (needed on testnet unless a rule watches its logs).
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { SETTLED_DEFAULT_BLOCKS, SETTLED_MAX_BLOCKS, lifecycleRegistries, type SbtcLifecycleSection } from '../sbtc/lifecycle-section';
import type { ConfigProblem } from './config-problems';
import { comment, evenWithBadEntries, noDuplicates, principal, recipientSchema, sameString, wholeNumber } from './schema-parts';
import { standardAddressProblem } from './stacks-principals';

const principals = (network: Network | null, listName: string, who: string) =>
  z.optional(
    z
      .array(recipientSchema(network), { error: `must be a list [...] of Stacks addresses: ${who}` })
      .check(z.superRefine(noDuplicates(sameString, listName, 'the same address'), evenWithBadEntries)),
  );

/** Whose deposits and withdrawals are followed, and the settled follow-up: the section's keys the `sbtc-bridge` pack takes too. */
export const lifecycleScopeShape = (network: Network | null) => ({
  recipients: principals(network, 'recipients', 'the recipients whose deposits to follow'),
  senders: principals(network, 'senders', 'the senders whose withdrawals to follow'),
  settled: z.optional(
    z.strictObject(
      { $comment: comment, blocks: z.optional(wholeNumber(1, SETTLED_MAX_BLOCKS)) },
      { error: `must be an object: {} sends a settled alert once a completed deposit or withdrawal is ${SETTLED_DEFAULT_BLOCKS} Bitcoin blocks deep, {"blocks": N} after N` },
    ),
  ),
});

export const sbtcLifecycleSchema = (network: Network | null) =>
  z.optional(
    z.strictObject(
      {
        $comment: comment,
        ...lifecycleScopeShape(network),
        deployer: z.optional(
          principal(standardAddressProblem, network, 'the address that deployed the sBTC contracts, e.g. "SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4"'),
        ),
      },
      { error: 'must be an object: {} turns on the sBTC deposit and withdrawal deadline alerts' },
    ),
  );

/** What the shape cannot say: on testnet the section must know which registry to follow. */
export function sbtcLifecycleProblems(config: { network: Network; sbtcLifecycle?: SbtcLifecycleSection; contractLogs: readonly { contractId: string }[] }): ConfigProblem[] {
  const section = config.sbtcLifecycle;
  if (section === undefined) return [];
  if (lifecycleRegistries(section, config.network, config.contractLogs.map((r) => r.contractId)).length > 0) return [];
  return [
    {
      path: '$.sbtcLifecycle.deployer',
      value: undefined,
      message: `is needed on ${config.network}: give the address that deployed the sBTC contracts there (mainnet's is the default), or watch that deployment's sbtc-registry in "contractLogs"`,
    },
  ];
}
