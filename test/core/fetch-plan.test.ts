// The fetch plan: the subjects the rules watch, and per subject or the block scan, whichever costs fewer
// requests for the blocks to cover, with its estimate and reason; a rule no subject covers keeps the block scan.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { compileWatchRules, type WatchRules } from '../../lambda/core/rules/rule-lists';
import { chooseFetchPlan, subjectsOf } from '../../lambda/core/follow/fetch-plan';
import { fakeAddress, fakeContractId } from '../support/fake-hiro';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const carol = fakeAddress('carol');
const vault = fakeContractId('vault');
const pool = fakeContractId('pool');

function rules(config: Record<string, unknown>): WatchRules {
  const parsed = parseWatchConfig({ network: 'mainnet', ...config });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return compileWatchRules(parsed.config);
}

describe('the subjects of the rules', () => {
  it('are the contracts whose logs are watched and every principal a rule names, each once', () => {
    const watch = rules({
      contractLogs: [{ contractId: vault }],
      addresses: [alice],
      transfers: [{ asset: 'stx', to: [alice], from: [bob] }],
      calls: [{ contractId: pool }],
      balances: [{ address: carol, asset: 'stx', below: '1000' }],
    });

    expect(subjectsOf(watch)).toEqual({ contracts: [vault], principals: [alice, bob, pool, carol], unbound: [] });
  });
});

describe('choosing how to read', () => {
  it('reads per subject once the deprecated routes are gone: 2 subjects over 7 blocks cost 5 requests against 113', () => {
    const plan = chooseFetchPlan({ rules: rules({ contractLogs: [{ contractId: vault }], addresses: [alice] }), blocks: 7, budget: 50, retired: true });

    expect(plan).toEqual({
      way: 'per-subject',
      subjects: { contracts: [vault], principals: [alice] },
      estimate: { perSubject: 5, blockScan: 113 },
      reason: 'reading 2 subjects over 7 blocks costs about 5 requests, against 113 for the block scan',
    });
  });

  it('keeps the block scan while it is cheaper: 200 addresses over 7 blocks with /tx/multiple answering', () => {
    const many = Array.from({ length: 200 }, (_, i) => fakeAddress(`holder-${i}`));

    const plan = chooseFetchPlan({ rules: rules({ addresses: many }), blocks: 7, budget: 500, retired: false });

    expect(plan.way).toBe('block-scan');
    expect(plan.estimate.blockScan).toBe(10);
    expect(plan.reason).toBe('the block scan costs about 10 requests for 7 blocks, no more than the 202 of reading 200 subjects');
  });

  it('keeps the block scan for a transfers rule that names no address, whatever it costs', () => {
    const watch = rules({ transfers: [{ asset: 'stx', to: [alice] }] });
    const [rule] = watch.transfers.get('stx')!;
    const unbound = { ...watch, transfers: new Map([['*', [{ ...rule!, to: new Set<string>(), meta: { ...rule!.meta, rule: 'any-asset' } }]]]) } as WatchRules;

    const plan = chooseFetchPlan({ rules: unbound, blocks: 7, budget: 50, retired: true });

    expect(plan).toMatchObject({ way: 'block-scan', estimate: { perSubject: null, blockScan: 113 } });
    expect(plan.reason).toBe('rule any-asset names no address, so only reading every block can match it');
  });

  it('says when neither way fits the requests the run has left', () => {
    const plan = chooseFetchPlan({ rules: rules({ addresses: [alice] }), blocks: 7, budget: 2, retired: true });

    expect(plan.reason).toBe(
      'reading 1 subject over 7 blocks costs about 3 requests, against 113 for the block scan; neither fits the 2 requests left, so the run covers fewer blocks',
    );
  });
});
