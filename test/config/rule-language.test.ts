import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ConfigProblem, parseWatchConfig } from '../../lambda/config/watch-config';
import { MAINNET } from './principals';

const VAULT = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-vault';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-registry';

function problemsOf(input: unknown): ConfigProblem[] {
  const result = parseWatchConfig(input);
  if (result.ok) throw new Error(`expected problems, got a valid config: ${JSON.stringify(result.config)}`);
  return result.problems;
}
const paths = (input: unknown) => problemsOf(input).map((p) => p.path);

describe('where and calls in the watch config', () => {
  it('accepts the worked examples of docs/rules-and-conditions.md and keeps their rules as written', () => {
    const input = {
      network: 'mainnet',
      contractLogs: [
        { contractId: VAULT, where: { action: 'withdraw', amount: { gte: '1000000000000' } } },
        { contractId: SBTC, where: { topic: 'withdrawal-create', amount: { gte: 100000000 } } },
      ],
      calls: [{ contractId: VAULT, status: 'failed' }],
    };
    const result = parseWatchConfig(input);
    expect(result).toMatchObject({ ok: true, config: { contractLogs: input.contractLogs, calls: input.calls } });
  });

  it('accepts a config that watches only calls, and fills in status "any"', () => {
    const result = parseWatchConfig({ network: 'mainnet', calls: [{ contractId: VAULT, functions: ['withdraw'], from: [MAINNET.alex] }] });
    expect(result).toEqual(expect.objectContaining({ ok: true }));
    if (result.ok) expect(result.config.calls).toEqual([{ contractId: VAULT, functions: ['withdraw'], from: [MAINNET.alex], status: 'any' }]);
  });

  it('reports every mistake in a where at its full JSON path', () => {
    const problems = problemsOf({
      network: 'mainnet',
      contractLogs: [{ contractId: VAULT, where: { amount: { gte: 'lots' }, action: { like: 'with%' }, 'a..b': 1, anyOf: [{ not: 'x' }] } }],
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['$.contractLogs[0].where.amount.gte', expect.stringContaining('"gte" compares integers')],
      ['$.contractLogs[0].where.action.like', expect.stringContaining('unknown operator "like"')],
      ['$.contractLogs[0].where["a..b"]', expect.stringContaining('is not a path')],
      ['$.contractLogs[0].where.anyOf[0].not', expect.stringContaining('must be an object of conditions')],
    ]);
    expect(problems[0]?.value).toBe('lots');
  });

  it('reports a bad calls rule field by field', () => {
    expect(
      paths({
        network: 'mainnet',
        calls: [{ contractId: 'nope', status: 'failing', functions: [], from: ['SP123'], funtions: ['x'] }],
      }).sort(),
    ).toEqual(['$.calls[0].contractId', '$.calls[0].from[0]', '$.calls[0].functions', '$.calls[0].funtions', '$.calls[0].status']);
    const [unknown] = problemsOf({ network: 'mainnet', calls: [{ contractId: VAULT, funtions: ['x'] }] });
    expect(unknown?.message).toContain('did you mean "functions"?');
  });

  it('lets one contract have several rules, and calls a repeat only a rule equal in everything but its comment', () => {
    const ok = parseWatchConfig({
      network: 'mainnet',
      contractLogs: [
        { contractId: VAULT, where: { amount: { gte: 1 } } },
        { contractId: VAULT, where: { amount: { gte: 2 } } },
        { contractId: VAULT, contains: 'x', where: { amount: { gte: 1 } } },
      ],
      calls: [
        { contractId: VAULT, status: 'failed' },
        { contractId: VAULT, status: 'success' },
      ],
    });
    expect(ok.ok).toBe(true);
    const problems = problemsOf({
      network: 'mainnet',
      contractLogs: [
        { contractId: VAULT, where: { amount: { gte: 1 }, action: 'w' } },
        { $comment: 'same, keys in another order', contractId: VAULT, where: { action: 'w', amount: { gte: 1 } } },
      ],
      calls: [
        { contractId: VAULT, functions: ['a'] },
        { functions: ['a'], contractId: VAULT },
      ],
    });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['$.contractLogs[1]', 'repeats contractLogs[0] (the same rule); remove one'],
      ['$.calls[1]', 'repeats calls[0] (the same rule); remove one'],
    ]);
  });

  it('names calls among the lists when nothing is watched', () => {
    expect(problemsOf({ network: 'mainnet', calls: [] })[0]?.message).toContain('"calls" and "balances" are all empty');
  });

  it('accepts every config of docs/rules-and-conditions.md as it is written there', () => {
    const section = readFileSync(new URL('../../docs/rules-and-conditions.md', import.meta.url), 'utf8');
    const configs = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>).filter((c) => 'network' in c);
    expect(configs).toHaveLength(4);
    for (const config of configs) expect(parseWatchConfig(config)).toMatchObject({ ok: true });
  });
});
