// More of the mistakes people make in their first watch.json (newcomer-messages.test.ts has the first ones):
// every comment and trailing comma at once, each at its line, whatever its style; any other syntax error on
// one line; a `gte` too big for a JSON number; and `where` values that cannot mean what they look like.
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
  it('names every comment (//, /* */ spanning lines, #) and trailing comma at once, each at its line', () => {
    const text = [
      '{',
      '  // my treasury',
      '  "network": "mainnet", /* for now,',
      '     until the audit */',
      '  # deposits',
      `  "addresses": ["${ADDRESS}",],`,
      '}',
    ].join('\n');
    expect(problemsOf(text).map((p) => [p.message.replace(/: .*/, ''), p.value])).toEqual([
      ['watch.json has a comment at line 2', '// my treasury'],
      ['watch.json has a comment at line 3', '"network": "mainnet", /* for now,'],
      ['watch.json has a comment at line 5', '# deposits'],
      ['watch.json has a trailing comma at line 6', `"addresses": ["${ADDRESS}",],`],
      ['watch.json has a trailing comma at line 6', `"addresses": ["${ADDRESS}",],`],
    ]);
  });

  it('reports any other syntax error on one line, though the parser quotes the text around it over several', () => {
    const [problem] = problemsOf('{\n  "network": mainnet,\n  "addresses": []\n}');
    expect(problem!.message).toMatch(/^watch\.json is not valid JSON at line \d+, column \d+: Unexpected token 'm'/);
    expect(formatConfigProblems([problem!], 'watch.json').split('\n')).toHaveLength(2);
  });
});

describe('where values newcomers write', () => {
  it('asks for a gte too big for a JSON number to be written in quotes', () => {
    expect(problemsOfConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { amount: { gte: 100_000_000_000_000_000_000 } } }] })).toEqual([
      ['$.contractLogs[0].where.amount.gte', expect.stringMatching(/^"gte" is too big for a JSON number .*: write it in quotes/)],
    ]);
  });

  it('rejects a comparison written as text, naming the operator to use', () => {
    expect(problemsOfConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { amount: '>= 100', fee: '<5' } }] })).toEqual([
      [
        '$.contractLogs[0].where.amount',
        'looks like a comparison but is text to equal: to compare numbers write {"gte": "100"} (for the text itself, {"eq": ">= 100"})',
      ],
      ['$.contractLogs[0].where.fee', 'looks like a comparison but is text to equal: to compare numbers write {"lt": "5"} (for the text itself, {"eq": "<5"})'],
    ]);
  });

  it('rejects a number where only text is compared (startsWith), and quotes it in the fix', () => {
    expect(problemsOfConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { name: { startsWith: 12 } } }] })).toEqual([
      ['$.contractLogs[0].where.name.startsWith', '"startsWith" compares text: write the number in quotes, {"startsWith": "12"}'],
    ]);
  });

  it("takes a bare number in contains: a list of integers holds numbers, found in the list's own type", () => {
    expect(parseWatchConfig({ network: 'mainnet', contractLogs: [{ contractId: VAULT, where: { ids: { contains: 42 } } }] })).toMatchObject({ ok: true });
  });

  it('still takes the text itself through eq, and numbers where numbers are compared', () => {
    const config = {
      network: 'mainnet',
      contractLogs: [{ contractId: VAULT, where: { op: { eq: '>= 100' }, amount: { gte: 100 }, id: 5, tags: { contains: '5' } } }],
    };
    expect(parseWatchConfig(config).ok).toBe(true);
  });
});
