// `addresses`: principals whose incoming STX the watcher alerts on, natively (token_transfer) or moved by a
// contract (stx_transfer); one `addressesRule` names and ranks all their alerts. Matched with `transfers`
// in asset-moves.ts.
import * as z from '../../zod-mini';
import { comment, list, noDuplicates, recipientSchema, sameString } from '../watch-config/schema-parts';
import { LIST_RULE_KEYS, pickRuleMeta, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { defaultRuleName, RuleMetaCompiler, type RuleMeta } from '../stages/rule-meta';
import type { Network } from '../domain';
import type { RuleList } from './rule-list';
import { bareListWords, ruleWords } from './rule-words';
import { compileMemo, memoFilterSchema, memoWords, type CompiledMemo } from './memo-filter';

export interface CompiledAddresses {
  principals: ReadonlySet<string>;
  /** What every `addresses` alert carries. */
  meta: RuleMeta;
  /** `addressesRule.memo`: only transfers whose memo satisfies it alert; null: every transfer. */
  memo: CompiledMemo | null;
}

/** `addressesRule`: the metadata every list's `…Rule` takes, and a memo condition (deposits credited by memo). */
function addressesRule(meta: RuleMetaParts) {
  const object = z.strictObject(
    { $comment: comment, ...meta.shape, memo: z.optional(memoFilterSchema) },
    { error: 'must be an object like {"name": "…", "severity": "critical", "memo": {"exists": false}} naming every alert of "addresses"' },
  );
  return z.optional(
    z.pipe(
      object,
      z.transform((value: z.output<typeof object>) => ({ ...pickRuleMeta(value), ...(value.memo === undefined ? {} : { memo: value.memo }) })),
    ),
  );
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  addresses: list(recipientSchema(network), 'addresses whose incoming STX transfers to watch', noDuplicates(sameString, 'addresses', 'the same address')),
  addressesRule: addressesRule(meta),
});

export const addressesList = {
  name: 'addresses',
  shape,
  metaKey: 'addressesRule',
  entryKeys: [...LIST_RULE_KEYS, 'memo'],
  windowSum: 'amount',
  compile: (config, meta = new RuleMetaCompiler()): CompiledAddresses => ({
    principals: new Set(config.addresses),
    meta: meta.of(config.addressesRule, defaultRuleName('addresses')),
    memo: config.addressesRule?.memo === undefined ? null : compileMemo(config.addressesRule.memo),
  }),
  describe: (config) =>
    bareListWords(
      'STX arriving at',
      config.addresses,
      'address',
      `an alert for each transfer${config.addressesRule?.memo === undefined ? '' : ` ${memoWords(config.addressesRule.memo)}`}, native or inside a contract call${ruleWords(config.addressesRule)}`,
    ),
  nameWords: () => 'STX arriving at the watched addresses',
} satisfies RuleList<'addresses', ReturnType<typeof shape>, CompiledAddresses>;
