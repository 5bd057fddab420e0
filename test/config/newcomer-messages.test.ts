// The mistakes people make writing their first watch.json, each answered in words with the fix, at its line.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig, parseWatchConfigText } from '../../lambda/config/watch-config';

const WATCHED = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const messages = (result: ReturnType<typeof parseWatchConfig>) => (result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`));

describe('messages for the mistakes newcomers make', () => {
  it('names a trailing comma at the line it is on, not where JSON.parse stumbles', () => {
    const text = ['{', '  "network": "mainnet",', `  "addresses": ["${WATCHED}"],`, '}'].join('\n');
    expect(messages(parseWatchConfigText(text, 'watch.json'))).toEqual([
      '$: watch.json has a trailing comma at line 3: JSON allows no comma after the last entry; remove it',
    ]);
    const inList = ['{', '  "network": "mainnet",', `  "addresses": ["${WATCHED}",`, '  ]', '}'].join('\n');
    expect(messages(parseWatchConfigText(inList, 'watch.json'))[0]).toContain('trailing comma at line 3');
  });

  it('says JSON has no comments and names "$comment", for // and /* */ alike', () => {
    for (const comment of ['// my wallet', '/* my wallet */']) {
      const text = ['{', `  ${comment}`, '  "network": "mainnet"', '}'].join('\n');
      expect(messages(parseWatchConfigText(text, 'watch.json'))).toEqual([
        '$: watch.json has a comment at line 2: JSON has no comments; use "$comment": "…" (a string or a list of strings), which stacks-watch ignores',
      ]);
    }
  });

  it('reads no comment or comma inside a string, and says what JSON.parse says for other mistakes', () => {
    const text = ['{', '  "$comment": "see https://example.com/x, ] // not a comment",', '  "network" "mainnet"', '}'].join('\n');
    expect(messages(parseWatchConfigText(text, 'watch.json'))).toEqual([expect.stringMatching(/^\$: watch\.json is not valid JSON at line 3, column \d+: /)]);
  });

  it('asks for "stx" in lower case', () => {
    const result = parseWatchConfig({ network: 'mainnet', transfers: [{ asset: 'STX', to: [WATCHED] }] });
    expect(messages(result)).toEqual(['$.transfers[0].asset: means STX: write "stx" in lower case']);
  });

  it('asks for an amount too big for a JSON number in quotes', () => {
    const result = parseWatchConfig({ network: 'mainnet', transfers: [{ asset: 'stx', to: [WATCHED], minAmount: 1e20 }] });
    expect(messages(result)).toEqual([expect.stringMatching(/^\$\.transfers\[0\]\.minAmount: is too big for a JSON number .*write it in quotes/)]);
    expect(parseWatchConfig({ network: 'mainnet', transfers: [{ asset: 'stx', to: [WATCHED], minAmount: '100000000000000000000' }] }).ok).toBe(true);
  });
});
