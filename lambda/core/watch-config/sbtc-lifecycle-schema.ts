// `sbtcLifecycle`: the sBTC deposit and withdrawal deadline alerts (core/sbtc, stages/sbtc-lifecycle.ts). Off
// unless the key is there: watching the sbtc-registry's prints does not by itself ask for deadline alerts, so a
// config says it wants them (the `sbtc-bridge` pack does). `{}` follows every deposit and withdrawal of mainnet's
// registry; `recipients` and `senders` narrow it to a wallet's own, `settled` adds the settled follow-up, and
// `deployer` names the deployment whose registry is followed (needed on testnet unless a rule watches its logs),
// `deadlines` moves the signers' default deadlines (core/sbtc/deadlines.ts) for a bridge that runs slower or faster.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { DEADLINE_ORDER, DEFAULT_DEADLINES, MAX_DEADLINE_BLOCKS, type SbtcDeadlines } from '../sbtc/deadlines';
import { SETTLED_DEFAULT_BLOCKS, SETTLED_MAX_BLOCKS, lifecycleRegistries, sectionDeadlines, type SbtcLifecycleSection } from '../sbtc/lifecycle-section';
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
      {
        error: `must be an object: {} sends a settled alert once a completed deposit or withdrawal is ${SETTLED_DEFAULT_BLOCKS} Bitcoin blocks deep, {"blocks": N} after N`,
      },
    ),
  ),
});

const blocks = () => z.optional(wholeNumber(1, MAX_DEADLINE_BLOCKS));

/** Any subset of the deadlines, each in whole Bitcoin blocks; their order is checked beside the defaults (deadlineOrderProblems). */
const deadlinesSchema = z.optional(
  z.strictObject(
    {
      $comment: comment,
      depositWarning: blocks(),
      depositCritical: blocks(),
      reclaimBuffer: blocks(),
      withdrawalWarning: blocks(),
      withdrawalCritical: blocks(),
      withdrawalExpiry: blocks(),
    },
    { error: 'must be an object of deadlines in Bitcoin blocks, e.g. {"depositWarning": 4, "withdrawalWarning": 14}' },
  ),
);

export const sbtcLifecycleSchema = (network: Network | null) =>
  z.optional(
    z.strictObject(
      {
        $comment: comment,
        ...lifecycleScopeShape(network),
        deployer: z.optional(
          principal(standardAddressProblem, network, 'the address that deployed the sBTC contracts, e.g. "SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4"'),
        ),
        deadlines: deadlinesSchema,
      },
      { error: 'must be an object: {} turns on the sBTC deposit and withdrawal deadline alerts' },
    ),
  );

/**
 * The deadlines out of order once the defaults fill the rest, each at the field the config set: a later one set
 * too early, else an earlier one set past the default that follows it.
 */
function deadlineOrderProblems(section: SbtcLifecycleSection): ConfigProblem[] {
  const set = sectionDeadlines(section);
  if (set === undefined) return [];
  const d: SbtcDeadlines = { ...DEFAULT_DEADLINES, ...set };
  const shown = (name: keyof SbtcDeadlines) => (set[name] === undefined ? `${d[name]}, its default` : `${d[name]}`);
  const problems: ConfigProblem[] = [];
  for (const [earlier, later] of DEADLINE_ORDER) {
    if (d[later] > d[earlier]) continue;
    const at = set[later] !== undefined ? later : earlier;
    const message =
      at === later ? `must be after ${earlier} (${shown(earlier)})` : `must be before ${later} (${shown(later)}): set ${later} too to move both later`;
    problems.push({ path: `$.sbtcLifecycle.deadlines.${at}`, value: d[at], message });
  }
  return problems;
}

/** What the shape cannot say: the deadlines' order, and on testnet which registry the section follows. */
export function sbtcLifecycleProblems(config: {
  network: Network;
  sbtcLifecycle?: SbtcLifecycleSection;
  contractLogs: readonly { contractId: string }[];
}): ConfigProblem[] {
  const section = config.sbtcLifecycle;
  if (section === undefined) return [];
  const order = deadlineOrderProblems(section);
  if (order.length > 0) return order;
  if (
    lifecycleRegistries(
      section,
      config.network,
      config.contractLogs.map((r) => r.contractId),
    ).length > 0
  )
    return [];
  return [
    {
      path: '$.sbtcLifecycle.deployer',
      value: undefined,
      message: `is needed on ${config.network}: give the address that deployed the sBTC contracts there (mainnet's is the default), or watch that deployment's sbtc-registry in "contractLogs"`,
    },
  ];
}
