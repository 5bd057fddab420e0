// The mistakes people make in their first watch.json, each told at its place, in words, with the fix, on
// one line: a comment or a trailing comma (JSON has neither), "STX" in capitals, a number too big for JSON,
// and `where` values that cannot mean what they look like.
import { describe, expect, it } from 'vitest';
import { formatConfigProblems, parseWatchConfig, parseWatchConfigText, type ConfigProblem } from '../../lambda/config/watch-config';

const ADDRESS = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const VAULT = `${ADDRESS}.vault`;

function problemsOf(text: string): ConfigProblem[] {
  const result = parseWatchConfigText(text, 'watch.json');
  if (result.ok) throw new Error('the config was accepted');
  return result.problems;
}

function problemsOfConfig(config: unknown): [string, string][] {
  const result = parseWatchConfig(config);
  if (result.ok) throw new Error('the config was accepted');
  return result.problems.map((p) => [p.path, p.message]);
}

describe('JSON written by hand', () => {
  it('names a trailing comma at the line of the comma, not of the bracket after it', () => {
    const text = ['{', '  "network": "mainnet",', '  "addresses": [', `    "${ADDRESS}",`, '  ]', '}'].join('\n');
    expect(problemsOf(text)).toEqual([
      { path: '$', value: `"${ADDRESS}",`, message: 'watch.json is not valid JSON at line 4, column 48: trailing comma after the last entry: remove it' },
    ]);
  });

  it('says JSON has no comments and what to use instead, for //, /* */ and #, each at its line', () => {
    const text = [
      '{',
      '  // my treasury',
      '  "network": "mainnet", /* for now */',
      '  # deposits',
      `  "addresses": ["${ADDRESS}"]`,
      '}',
    ].join('\n');
    expect(problemsOf(text).map((p) => p.message)).toEqual(
      [[2, 3], [3, 25], [4, 3]].map(
        ([line, column]) =>
          `watch.json is not valid JSON at line ${line}, column ${column}: JSON has no comments: use "$comment" (a key stacks-watch ignores, in the file or any rule) for a note`,
      ),
    );
  });

  it('finds no comment or comma inside a string', () => {
    const text = `{"network": "mainnet", "$comment": "see https://x.io // not a comment, ]", "addresses": ["${ADDRESS}"]}`;
    expect(parseWatchConfigText(text, 'watch.json').ok).toBe(true);
  });

  it('reports any other syntax error on one line', () => {
    const [problem] = problemsOf('{\n  "network": "mainnet"\n  "addresses": []\n}');
    expect(problem!.message).toMatch(/^watch\.json is not valid JSON at line 3, column 3: /);
    const unquoted = problemsOf('{\n  "network": mainnet,\n  "addresses": []\n}');
    expect(unquoted[0]!.message).toMatch(/^watch\.json is not valid JSON at line \d+, column \d+: Unexpected token 'm'/);
    expect(formatConfigProblems(unquoted, 'watch.json').split('\n')).toHaveLength(2);
  });
});

describe('values newcomers write', () => {
  it('asks for "stx" in lower case', () => {
    expect(problemsOfConfig({ network: 'mainnet', transfers: [{ asset: 'STX', to: [ADDRESS] }] })).toEqual([
      ['$.transfers[0].asset', 'write "stx" in lower case'],
    ]);
  });

  it('asks for a minAmount or a gte too big for a JSON number to be written in quotes', () => {
    const tooBig = 100_000_000_000_000_000_000;
    const problems = problemsOfConfig({
      network: 'mainnet',
      transfers: [{ asset: 'stx', to: [ADDRESS], minAmount: tooBig }],
      contractLogs: [{ contractId: VAULT, where: { amount: { gte: tooBig } } }],
    });
    expect(problems).toEqual([
      ['$.contractLogs[0].where.amount.gte', expect.stringMatching(/^"gte" is too big for a JSON number .*: write it in quotes/)],
      ['$.transfers[0].minAmount', expect.stringMatching(/^is too big for a JSON number .*: write it in quotes/)],
    ]);
  });

  it('rejects a comparison written as text in where, naming the operator to use', () => {
    expect(problemsOfConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { amount: '>= 100', fee: '<5' } }] })).toEqual([
      ['$.contractLogs[0].where.amount', 'looks like a comparison but is text to equal: to compare numbers write {"gte": "100"} (for the text itself, {"eq": ">= 100"})'],
      ['$.contractLogs[0].where.fee', 'looks like a comparison but is text to equal: to compare numbers write {"lt": "5"} (for the text itself, {"eq": "<5"})'],
    ]);
  });

  it('rejects a number where text is compared, and quotes it in the fix', () => {
    expect(problemsOfConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { memo: { contains: 5 }, name: { startsWith: 12 } } }] })).toEqual([
      ['$.contractLogs[0].where.memo.contains', '"contains" compares text: write the number in quotes, {"contains": "5"}'],
      ['$.contractLogs[0].where.name.startsWith', '"startsWith" compares text: write the number in quotes, {"startsWith": "12"}'],
    ]);
  });

  it('still takes the text itself through eq, and numbers where numbers are compared', () => {
    const config = { network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { op: { eq: '>= 100' }, amount: { gte: 100 }, id: 5, tags: { contains: '5' } } }] };
    expect(parseWatchConfig(config).ok).toBe(true);
  });
});
