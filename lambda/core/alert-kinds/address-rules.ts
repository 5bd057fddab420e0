// `addresses`: principals whose incoming STX the watcher alerts on, natively (token_transfer) or moved by a
// contract (stx_transfer); one `addressesRule` names and ranks all their alerts. Matched with `transfers`
// in asset-moves.ts.
import { list, noDuplicates, recipientSchema, sameString } from '../watch-config/schema-parts';
import { LIST_RULE_KEYS, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { defaultRuleName, ruleMeta, type RuleMeta } from '../rule-meta';
import type { Network } from '../domain';
import type { RuleList } from './rule-list';
import { bareListWords, ruleWords } from './rule-words';

export interface CompiledAddresses {
  principals: ReadonlySet<string>;
  /** What every `addresses` alert carries. */
  meta: RuleMeta;
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  addresses: list(recipientSchema(network), 'addresses whose incoming STX transfers to watch', noDuplicates(sameString, 'addresses', 'the same address')),
  addressesRule: meta.listRule('addresses'),
});

export const addressesList = {
  name: 'addresses',
  shape,
  metaKey: 'addressesRule',
  entryKeys: LIST_RULE_KEYS,
  compile: (config): CompiledAddresses => ({ principals: new Set(config.addresses), meta: ruleMeta(config.addressesRule, defaultRuleName('addresses')) }),
  describe: (config) =>
    bareListWords(
      'STX arriving at',
      config.addresses,
      'address',
      `an alert for each transfer, native or inside a contract call${ruleWords(config.addressesRule)}`,
    ),
} satisfies RuleList<'addresses', ReturnType<typeof shape>, CompiledAddresses>;
