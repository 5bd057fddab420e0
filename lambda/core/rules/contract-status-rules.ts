// `contracts`: contract ids whose deployment status the watcher checks each run (contract-status.ts).
import { contractIdSchema, list, noDuplicates, sameString } from '../watch-config/schema-parts';
import { LIST_RULE_KEYS, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { defaultRuleName, RuleMetaCompiler, type RuleMeta } from '../stages/rule-meta';
import type { Network } from '../domain';
import type { RuleList } from './rule-list';
import { bareListWords, ruleWords } from './rule-words';

export interface CompiledContracts {
  ids: readonly string[];
  /** What every `contracts` (status) alert carries. */
  meta: RuleMeta;
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  contracts: list(contractIdSchema(network), 'contract ids whose deployment status to watch', noDuplicates(sameString, 'contracts', 'the same contract')),
  contractsRule: meta.listRule(
    'contracts',
    'is not taken here: a contract\'s status alerts once per change (a first check of many is summed up already); "mutedUntil" quiets them',
  ),
});

export const contractsList = {
  name: 'contracts',
  shape,
  metaKey: 'contractsRule',
  entryKeys: LIST_RULE_KEYS,
  // The status check reads the config itself (contract-status-watch.ts); compiled here for the alerts' rule.
  compile: (config, meta = new RuleMetaCompiler()): CompiledContracts => ({
    ids: config.contracts,
    meta: meta.of(config.contractsRule, defaultRuleName('contracts')),
  }),
  describe: (config) =>
    bareListWords('deployment status of', config.contracts, 'contract', `an alert on first sight and on every change${ruleWords(config.contractsRule)}`),
  nameWords: () => 'deployment status of the watched contracts',
} satisfies RuleList<'contracts', ReturnType<typeof shape>, CompiledContracts>;
