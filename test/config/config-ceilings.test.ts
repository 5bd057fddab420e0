// The watch config's ceilings: nesting depth, bytes, addresses and rules, each refused with one problem that
// names it, before the config is walked (a deep one would overflow the stack, a long one the heap).
import { describe, expect, it } from 'vitest';
import { parseWatchConfig, parseWatchConfigText } from '../../lambda/config/watch-config';
import { configCeilings, MAX_NESTING_DEPTH, type ConfigCeilings } from '../../lambda/core/watch-config/config-ceilings';
import { fakeAddress, fakeContractId } from '../support/fake-hiro';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const addresses = (count: number) => Array.from({ length: count }, (_, i) => fakeAddress(`holder-${i}`));

/** A contractLogs rule whose `where` nests `nots` conditions inside each other: the innermost at depth nots + 4. */
function nestedWhere(nots: number): string {
  return `{"network":"mainnet","contractLogs":[{"contractId":"${vault}","where":${'{"not":'.repeat(nots)}{"a":1}${'}'.repeat(nots)}}]}`;
}

describe('the nesting ceiling', () => {
  it('refuses a 20 KB config nested thousands deep with one problem naming where, instead of overflowing the stack', () => {
    const text = nestedWhere(2_500);
    expect(text.length).toBeGreaterThan(20_000);
    const result = parseWatchConfigText(text, 'watch.json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ path: '$.contractLogs[0].where' });
    expect(result.problems[0]!.message).toMatch(new RegExp(`nests arrays and objects more than ${MAX_NESTING_DEPTH} deep`));
  });

  it('refuses a deep value under an unknown key or a duplicated rule, which the problems would describe', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) as unknown;
    const rule = { contractId: vault, note: deep };
    for (const input of [
      { network: 'mainnet', addresses: [alice], extra: deep },
      { network: 'mainnet', transfers: [rule, rule] },
    ]) {
      const result = parseWatchConfig(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems.map((p) => p.message)).toEqual([expect.stringMatching(/more than \d+ deep/)]);
    }
  });

  it(`takes a config nested exactly ${MAX_NESTING_DEPTH} deep and refuses one level more`, () => {
    const atBound = parseWatchConfigText(nestedWhere(MAX_NESTING_DEPTH - 4), 'watch.json');
    const past = parseWatchConfigText(nestedWhere(MAX_NESTING_DEPTH - 3), 'watch.json');
    expect(atBound.ok ? [] : atBound.problems.map((p) => p.message)).not.toContainEqual(expect.stringMatching(/deep/));
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.problems[0]!.message).toMatch(/deep/);
  });
});

describe('the size ceilings', () => {
  const small: ConfigCeilings = { memoryMb: 256, bytes: 4_000, tokens: 40, addresses: 3, rules: 2 };

  it('refuses more addresses than the ceiling with one problem, before checking each address', () => {
    const result = parseWatchConfigText(JSON.stringify({ network: 'mainnet', addresses: [...addresses(3), 'not an address'] }), 'watch.json', small);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: '$.addresses', value: undefined, message: expect.stringMatching(/^lists 4 addresses; a function of 256 MB holds at most 3/) },
    ]);
    expect(parseWatchConfigText(JSON.stringify({ network: 'mainnet', addresses: addresses(3) }), 'watch.json', small).ok).toBe(true);
  });

  it('counts the rules of every list together against the rules ceiling', () => {
    const config = { network: 'mainnet', contracts: [vault], contractLogs: [{ contractId: vault }], transfers: [{ to: alice }] };
    const result = parseWatchConfigText(JSON.stringify(config), 'watch.json', small);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        {
          path: '$',
          value: undefined,
          message: expect.stringMatching(/^holds 3 rules \(contracts 1, contractLogs 1, transfers 1\); a function of 256 MB holds at most 2/),
        },
      ]);
    const { transfers: _dropped, ...fewer } = config;
    expect(parseWatchConfigText(JSON.stringify(fewer), 'watch.json', small).ok).toBe(true);
  });

  it('refuses a text longer than the bytes ceiling without parsing it', () => {
    const text = JSON.stringify({ network: 'mainnet', addresses: [alice], $comment: 'x'.repeat(4_000) });
    const result = parseWatchConfigText(text, 'watch.json', small);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        { path: '$', value: undefined, message: expect.stringMatching(/^watch.json is 4,\d{3} bytes; a function of 256 MB reads at most 4,000/) },
      ]);
  });

  it('refuses a text of more JSON tokens than the ceiling before parsing it: 16 MiB of empty lists would not fit a 128 MB heap', () => {
    const lists = `{"network":"mainnet","addresses":["${alice}"],"x":[${Array<string>(300_000).fill('[]').join(',')}]}`;
    const result = parseWatchConfigText(lists, 'watch.json', configCeilings(256));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        {
          path: '$',
          value: undefined,
          message: expect.stringMatching(
            /^watch.json holds 600,00\d JSON tokens \(values, keys, lists and objects\); a function of 256 MB parses at most 600,000: deploy with memorySize 384 or more/,
          ),
        },
      ]);
    // Commas, colons and brackets inside strings are not values.
    const quoted = JSON.stringify({ network: 'mainnet', addresses: [alice], $comment: '[{,:}]'.repeat(100) });
    expect(parseWatchConfigText(quoted, 'watch.json', small).ok).toBe(true);
  });

  it('grows the ceilings with the function memory: the default 256 MB, and 1 GB holding a million addresses', () => {
    expect(configCeilings(256)).toEqual({ memoryMb: 256, bytes: 16 * 2 ** 20, tokens: 600_000, addresses: 250_000, rules: 10_000 });
    expect(configCeilings(1024)).toMatchObject({ bytes: 64 * 2 ** 20, tokens: 2_400_000, addresses: 1_000_000, rules: 40_000 });
    expect(configCeilings(128).addresses).toBe(125_000);
    // Past 2 GB a parse would take most of a run: the ceilings stop growing.
    expect(configCeilings(10_240)).toEqual({ ...configCeilings(2048), memoryMb: 10_240 });
  });
});
