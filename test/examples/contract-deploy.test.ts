// The worked example of docs/adding-a-kind.md: a kind not shipped, registered beside the shipped ones by
// building registries from them, validates its own rule list, matches blocks, and reads in every form.
import { describe, expect, it } from 'vitest';
import type { Block, Transaction } from '../../lambda/core/domain';
import { chainKindList, chainKindMap, chainKinds, type ChainAlert } from '../../lambda/core/alert-kinds/chain-kinds';
import type { ChainKind } from '../../lambda/core/alert-kinds/kind';
import { compileWatchRules, ruleLists } from '../../lambda/core/rules/rule-lists';
import { blockAlerts, transactionsNeedingEvents } from '../../lambda/core/match/block-alerts';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { describeWatch } from '../../lambda/local/describe';
import { fitSms, smsLength, toGsm7 } from '../../lambda/core/render/gsm7';
import { contractDeployKind, deployersList } from '../../docs/examples/contract-deploy';
import { WATCHED, OTHER } from '../core/harness';

// The production registries plus the example: what registering it in chain-kinds.ts and rule-lists.ts does.
const kinds = chainKindMap({ ...chainKinds, contract_deploy: contractDeployKind });
const kindList = Object.values(kinds) as unknown as ChainKind<ChainAlert>[];
const lists = [...ruleLists, deployersList];

const header = { height: 182345, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1714564800, txCount: 3 };
const deploy = (n: number, sender: string, over: Partial<Transaction> = {}): Transaction => ({
  txId: `0x${String(n).padStart(2, '0').repeat(32)}`,
  txIndex: n,
  txType: 'smart_contract',
  txStatus: 'success',
  sender,
  eventCount: 0,
  contractId: `${sender}.vault-v${n}`,
  ...over,
});
const block: Block = {
  header,
  transactions: [deploy(0, WATCHED), deploy(1, OTHER), deploy(2, WATCHED, { txStatus: 'abort_by_response' })],
};

function parsed(input: Record<string, unknown>) {
  const result = parseWatchConfig({ network: 'mainnet', ...input }, lists);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

describe('contract_deploy, registered from outside the production registries', () => {
  it('validates its rule list with the same messages and hints as the shipped lists', () => {
    const result = parseWatchConfig({ network: 'mainnet', deployers: [{ deployer: 'SP123', severty: 'info' }] }, lists);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map((p) => p.path)).toEqual(['$.deployers[0].deployer', '$.deployers[0].severty']);
    expect(problems[1]?.message).toContain('did you mean "severity"?');
    // Its name is reserved for its default rule names, in every list.
    const named = parseWatchConfig({ network: 'mainnet', calls: [{ contractId: `${WATCHED}.vault`, name: 'deployers:ours' }] }, lists);
    expect(named.ok ? [] : named.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      expect.stringMatching(/^\$\.calls\[0\]\.name: .*kept for default names/),
    ]);
  });

  it('counts as something to watch, and the shipped config does not know it', () => {
    expect(parseWatchConfig({ network: 'mainnet', deployers: [{ deployer: WATCHED }] }, lists).ok).toBe(true);
    const shipped = parseWatchConfig({ network: 'mainnet', deployers: [{ deployer: WATCHED }] });
    expect(shipped.ok ? [] : shipped.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('unknown key "deployers"'),
      expect.stringContaining('nothing to watch'),
    ]);
  });

  it('matches a successful deploy by a watched deployer, under its rule, and only that', () => {
    const config = parsed({ deployers: [{ deployer: WATCHED, name: 'Our deploys', severity: 'critical' }] });
    const rules = compileWatchRules(config, lists);
    const alerts = blockAlerts(block, new Map(), rules, 'mainnet', kindList);
    expect(alerts).toEqual([
      expect.objectContaining({ type: 'contract_deploy', contract_id: `${WATCHED}.vault-v0`, deployer: WATCHED, rule: 'Our deploys', severity: 'critical' }),
    ]);
    expect(transactionsNeedingEvents(block, rules, kindList)).toEqual([]);
  });

  it('names its alerts by default after its list and deployer', () => {
    const rules = compileWatchRules(parsed({ deployers: [{ deployer: WATCHED }] }), lists);
    expect(blockAlerts(block, new Map(), rules, 'mainnet', kindList)[0]).toMatchObject({ rule: `deployers:${WATCHED}`, severity: 'warning' });
  });

  it('leaves the shipped kinds as they were', () => {
    const config = parsed({ addresses: [WATCHED] });
    expect(blockAlerts(block, new Map(), compileWatchRules(config, lists), 'mainnet', kindList)).toEqual(
      blockAlerts(block, new Map(), compileWatchRules(config), 'mainnet', chainKindList),
    );
  });

  it('reads in every form, and says what it watches in --check', () => {
    const alert = contractDeployKind.sample;
    expect(contractDeployKind.subject(alert)).toBe('arkadiko-vault-v2 deployed by SP2C...YZR (block 182,345)');
    expect(contractDeployKind.email(alert)).toContain(`Deployer`);
    expect(smsLength(fitSms(toGsm7(contractDeployKind.sms(alert)))).units).toBeLessThanOrEqual(160);
    expect(contractDeployKind.terminal(alert).map(([label]) => label)).toEqual(['Contract', 'Deployer', 'Block']);
    const api = { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false };
    expect(describeWatch(parsed({ deployers: [{ deployer: WATCHED }] }), api, 'watch.json', lists)).toContain(
      `- contracts deployed by 1 deployer rule:\n    ${WATCHED}\n`,
    );
  });
});
