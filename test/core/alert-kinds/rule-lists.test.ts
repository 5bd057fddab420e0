// The rule-list registry is the one place a list is named: the default-name prefixes, each kind's reads and
// each matcher's input follow from it.
import { describe, expect, it } from 'vitest';
import { chainKindList } from '../../../lambda/core/alert-kinds/chain-kinds';
import { compileWatchRules, defaultNamePrefixes, ruleLists } from '../../../lambda/core/rules/rule-lists';
import { WATCHER_RULE } from '../../../lambda/core/stages/rule-meta';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { renderSubject } from '../../../lambda/core/render';
import { contractCallKind } from '../../../lambda/core/alert-kinds/contract-call';
import { blockAlerts } from '../../../lambda/core/match/block-alerts';
import { config, WATCHED } from '../harness';

describe('the rule-list registry', () => {
  it("reserves every list's name (and the watcher's) for default rule names: refused as a given name, left out of renderings", () => {
    expect(defaultNamePrefixes()).toEqual([...ruleLists.map((list) => list.name), WATCHER_RULE]);
    for (const prefix of defaultNamePrefixes()) {
      const result = parseWatchConfig({ network: 'mainnet', contracts: [`${WATCHED}.vault`], contractsRule: { name: `${prefix}:mine` } });
      expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([expect.stringContaining('kept for default names')]);
      expect(renderSubject({ ...contractCallKind.sample, rule: `${prefix}:x` })).not.toContain(`${prefix}:x`);
    }
  });

  it('registers every list a chain kind reads, under the name the kind reads it by', () => {
    for (const kind of chainKindList) {
      for (const [name, list] of Object.entries(kind.chain.reads)) {
        expect(ruleLists).toContain(list);
        expect(list.name).toBe(name);
      }
    }
  });

  it('hands each matcher the compiled rules of the lists it reads, and nothing else', () => {
    const rules = compileWatchRules(config({ calls: [{ contractId: `${WATCHED}.vault`, status: 'any' }] }));
    const seen: string[][] = [];
    const spies = chainKindList.map((kind) => ({
      ...kind,
      chain: {
        ...kind.chain,
        match: (input: Parameters<NonNullable<typeof kind.chain.match>>[0]) => {
          seen.push(Object.keys(input.rules as object).sort());
          return [];
        },
      },
    }));
    blockAlerts({ header: { height: 1, hash: '0x01', parentHash: null, time: 0, txCount: 0 }, transactions: [] }, new Map(), rules, 'mainnet', spies);
    expect(seen).toEqual(chainKindList.map((kind) => Object.keys(kind.chain.reads).sort()));
    expect(seen.flat()).not.toContain('contracts');
  });
});
