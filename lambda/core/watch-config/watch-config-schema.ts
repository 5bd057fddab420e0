// The watch config's shape in zod: the run settings here, every rule list's keys from its own module
// (lambda/core/rules/rule-lists.ts). Messages are written for the person editing watch.json: each says
// what the field must hold, since the path and the bad value are shown beside it.
// zod/mini (see ../zod-mini): schemas wrap (`z.optional(x)`) and checks attach (`.check(...)`) rather than chain.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { defaultNamePrefixes, ruleLists, type RuleLists } from '../rules/rule-lists';
import { ruleMetaParts } from './rule-meta-schema';
import type { AnyRuleList, ShapesOf } from '../rules/rule-list';
import { comment, needs, wholeNumber } from './schema-parts';
import { packsSchema } from '../packs/expand';
import { chainHealthSchema } from './chain-health-schema';
import { sbtcLifecycleSchema } from './sbtc-lifecycle-schema';

export const NETWORKS = ['mainnet', 'testnet'] as const satisfies readonly Network[];

/** Alerts texted per run when the config does not say (sms-budget.ts). */
export const SMS_PER_RUN_DEFAULT = 5;

export const DEFAULTS = { startHeight: 'latest', confirmations: 0, maxBlocksPerRun: 500, smsPerRun: SMS_PER_RUN_DEFAULT } as const;

/**
 * The lists' keys in the order the file documents them: the lists of bare ids, their `…Rule` objects, then
 * the lists of rule objects (the order "allowed keys are …" names them in).
 */
function listKeys(lists: readonly AnyRuleList[], network: Network | null): ShapesOf<RuleLists> {
  const meta = ruleMetaParts(defaultNamePrefixes(lists));
  const shapes = lists.map((list) => ({ list, shape: list.shape(network, meta) as Record<string, z.ZodMiniType> }));
  const metaKeys = new Set(lists.flatMap((list) => (list.metaKey ? [list.metaKey] : [])));
  const pick = (keep: (key: string, list: AnyRuleList) => boolean) =>
    Object.fromEntries(shapes.flatMap(({ list, shape }) => Object.entries(shape).filter(([key]) => keep(key, list))));
  return {
    ...pick((key, list) => list.metaKey !== undefined && !metaKeys.has(key)),
    ...pick((key) => metaKeys.has(key)),
    ...pick((_key, list) => list.metaKey === undefined),
  } as ShapesOf<RuleLists>;
}

/**
 * The config schema; `network` (when the file names a valid one) lets addresses be checked against it. Typed
 * for the shipped lists; other `lists` (a kind being tried out) add their keys at run time.
 */
export function watchConfigSchema(network: Network | null, lists: readonly AnyRuleList[] = ruleLists) {
  const startHeightMessage = needs('"latest" or a block height (a whole number, 0 or more) to start scanning from');
  return z.strictObject(
    {
      $schema: z.optional(z.string({ error: 'must be the path of the JSON Schema editors use, e.g. "./watch.schema.json"' })),
      $comment: comment,
      network: z.enum(NETWORKS, { error: needs('"mainnet" or "testnet"') }),
      ...listKeys(lists, network),
      packs: packsSchema(network),
      startHeight: z._default(
        z.union([z.literal('latest'), z.int({ error: startHeightMessage }).check(z.minimum(0, { error: startHeightMessage }))], { error: startHeightMessage }),
        DEFAULTS.startHeight,
      ),
      confirmations: z._default(wholeNumber(0, 100), DEFAULTS.confirmations),
      maxBlocksPerRun: z._default(wholeNumber(1, 10_000), DEFAULTS.maxBlocksPerRun),
      smsPerRun: z._default(wholeNumber(0, 100), DEFAULTS.smsPerRun),
      chainHealth: chainHealthSchema,
      sbtcLifecycle: sbtcLifecycleSchema(network),
    },
    { error: 'the watch config must be a JSON object {"network": ..., "contracts": [...], ...}' },
  );
}

export type WatchConfigSchema = ReturnType<typeof watchConfigSchema>;

/** The watch config as validated: the schema's output, without the file's comment and schema path. */
export type WatchConfig = Omit<z.output<WatchConfigSchema>, '$comment' | '$schema'>;

/** The keys a config and each list's entries may have, for "did you mean" hints on unknown ones. */
export function allowedKeys(schema: { shape: object }, lists: readonly AnyRuleList[]): { top: string[]; byKey: ReadonlyMap<string, readonly string[]> } {
  const byKey = new Map<string, readonly string[]>();
  for (const list of lists) {
    if (list.metaKey) byKey.set(list.metaKey, list.entryKeys);
    else byKey.set(list.name, list.entryKeys);
  }
  return { top: Object.keys(schema.shape), byKey };
}
