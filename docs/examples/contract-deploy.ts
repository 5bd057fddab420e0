// `contract_deploy`, the worked example of docs/adding-a-kind.md: a successful smart_contract transaction
// sent by a watched deployer. One module holds all of it: the alert's shape, its rule list (`deployers`),
// its matcher and its wordings. It is type-checked and tested (test/examples/contract-deploy.test.ts) but
// not shipped: registering it is one line in lambda/core/alert-kinds/chain-kinds.ts and, since its rule
// list is new, one in rule-lists.ts.
import * as z from '../../lambda/zod-mini';
import { comment, list, noDuplicates, recipientSchema, sameJson } from '../../lambda/core/watch-config/schema-parts';
import { keysOf, pickRuleMeta, type RuleMetaParts } from '../../lambda/core/watch-config/rule-meta-schema';
import type { Network } from '../../lambda/core/domain';
import type { AlertBase } from '../../lambda/core/alert-kinds/alert-base';
import type { ChainKind, Matched } from '../../lambda/core/alert-kinds/kind';
import { groupBy, type RuleList } from '../../lambda/core/rules/rule-list';
import { plural, ruleWords } from '../../lambda/core/rules/rule-words';
import { chainRows, fields, id, networkName, smsWhere } from '../../lambda/core/render/email-parts';
import { contractName, explorerTxUrl, isoTime, shortPrincipal } from '../../lambda/core/render/chain-text';
import { formatCount } from '../../lambda/core/render/stx-amount';
import { defaultRuleName, ruleMeta, strongestRule, type RuleMeta } from '../../lambda/core/stages/rule-meta';
import { SAMPLE_ARKADIKO, SAMPLE_BLOCK_HASH, SAMPLE_BLOCK_TIME, SAMPLE_TX_ID } from '../../lambda/core/alert-kinds/samples';

// ---- the rule list: `"deployers": [{"deployer": "SP…", "name": "…", "severity": "…"}]` ----

function ruleSchema(network: Network | null, meta: RuleMetaParts) {
  const rule = z.strictObject(
    { $comment: comment, ...meta.shape, deployer: recipientSchema(network) },
    { error: 'must be an object like {"deployer": "ADDRESS", "name": "optional", "severity": "optional"}' },
  );
  return z.pipe(
    rule,
    z.transform(({ deployer, ...meta }: z.output<typeof rule>) => ({ deployer, ...pickRuleMeta(meta) })),
  );
}

export type DeployerRule = z.output<ReturnType<typeof ruleSchema>>;

/** deployer → the rules on its deployments, in config order. */
export type CompiledDeployers = ReadonlyMap<string, readonly RuleMeta[]>;

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  deployers: list(ruleSchema(network, meta), 'deployer rules {"deployer": ...}', noDuplicates(sameJson, 'deployers', 'the same rule')),
});

export const deployersList = {
  name: 'deployers',
  shape,
  entryKeys: keysOf((meta) => ruleSchema(null, meta).def.in.shape),
  compile: ({ deployers }): CompiledDeployers =>
    new Map(
      [...groupBy(deployers, (rule) => rule.deployer)].map(([deployer, rules]) => [
        deployer,
        rules.map((rule) => ruleMeta(rule, defaultRuleName('deployers', rule.deployer))),
      ]),
    ),
  describe: ({ deployers }) =>
    deployers.length === 0
      ? null
      : [`- contracts deployed by ${plural(deployers.length, 'deployer rule')}:`, ...deployers.map((r) => `    ${r.deployer}${ruleWords(r)}`)].join('\n'),
} satisfies RuleList<'deployers', ReturnType<typeof shape>, CompiledDeployers>;

// ---- the kind ----

export interface ContractDeployAlert extends AlertBase {
  type: 'contract_deploy';
  tx_id: string;
  block_height: number;
  block_hash: string;
  block_time: number;
  contract_id: string;
  deployer: string;
}

/** A contract is deployed once: its transaction identifies the alert. */
const key = (txId: string) => `contract_deploy:${txId}`;
const MARKER = '...';

export const contractDeployKind = {
  type: 'contract_deploy',
  key,

  chain: {
    reads: { deployers: deployersList },
    // The transaction list names the deployer and the contract: no events needed.
    needsEvents: () => false,
    match({ block, rules, network }) {
      if (rules.deployers.size === 0) return [];
      const found: Matched<ContractDeployAlert>[] = [];
      for (const tx of block.transactions) {
        if (tx.txType !== 'smart_contract' || tx.txStatus !== 'success' || tx.contractId === undefined) continue;
        const meta = strongestRule(rules.deployers.get(tx.sender) ?? []);
        if (!meta) continue;
        found.push({
          at: { txIndex: tx.txIndex, eventIndex: -1 },
          alert: {
            type: 'contract_deploy',
            key: key(tx.txId),
            network,
            tx_id: tx.txId,
            block_height: block.header.height,
            block_hash: block.header.hash,
            block_time: block.header.time,
            contract_id: tx.contractId,
            deployer: tx.sender,
            ...meta,
          },
        });
      }
      return found;
    },
    retraction: {
      label: 'contract deployment',
      summary: (a) => `${a.contract_id} deployed by ${a.deployer}`,
      carried: (a) => ({ contract_id: a.contract_id, address: a.deployer }),
    },
  },

  subject: (a) => `${contractName(a.contract_id)} deployed by ${shortPrincipal(a.deployer, MARKER)} (block ${formatCount(a.block_height)})`,
  email: (a) =>
    [
      `A watched deployer deployed a contract on ${networkName(a.network)}.`,
      '',
      fields([['Contract', id(a.contract_id)], ['Deployer', id(a.deployer)], ...chainRows(a)]),
    ].join('\n'),
  sms: (a) => `${contractName(a.contract_id)} deployed ${smsWhere(a.block_height, a.tx_id)} by ${shortPrincipal(a.deployer, MARKER)}`,
  terminal: (a) => [
    ['Contract', id(a.contract_id)],
    ['Deployer', id(a.deployer)],
    ['Block', `${formatCount(a.block_height)} at ${isoTime(a.block_time)}`],
  ],
  link: (a) => explorerTxUrl(a.tx_id, a.network),
  attributes: (a) => ({ contract_id: a.contract_id, address: a.deployer }),

  sample: {
    type: 'contract_deploy',
    key: key(SAMPLE_TX_ID),
    network: 'mainnet',
    tx_id: SAMPLE_TX_ID,
    block_height: 182345,
    block_hash: SAMPLE_BLOCK_HASH,
    block_time: SAMPLE_BLOCK_TIME,
    contract_id: `${SAMPLE_ARKADIKO}.arkadiko-vault-v2`,
    deployer: SAMPLE_ARKADIKO,
    rule: 'Arkadiko deploys',
    severity: 'info',
  },
} satisfies ChainKind<ContractDeployAlert, { deployers: CompiledDeployers }>;
