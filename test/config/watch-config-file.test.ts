import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateStacksAddress } from '@stacks/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigProblem, WatchConfigError, formatConfigProblems, loadWatchConfigFile, parseWatchConfigText } from '../../lambda/config/watch-config';

const POX5 = 'SP000000000000000000002Q6VF78.pox-5';
const repoFile = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));
const VALID_TEXT = JSON.stringify({ network: 'mainnet', contractLogs: [{ contractId: POX5 }] });

describe('parseWatchConfigText', () => {
  it('parses and validates JSON text', () => {
    expect(parseWatchConfigText(VALID_TEXT, 'watch.json')).toMatchObject({ ok: true, config: { contractLogs: [{ contractId: POX5 }] } });
  });

  it('turns a syntax error into one problem naming the file, line and column', () => {
    const text = '{\n  "network": "mainnet",\n  "contracts": []\n  "addresses": []\n}';
    const result = parseWatchConfigText(text, 'watch.json');
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: '$',
          value: '"addresses": []',
          message: expect.stringMatching(/^watch\.json is not valid JSON at line 4, column 3: /),
        },
      ],
    });
  });

  it('places a trailing comma on its line', () => {
    const result = parseWatchConfigText('{\n  "network": "mainnet",\n}', 'cfg.json');
    expect(result.ok ? '' : result.problems[0]?.message).toContain('cfg.json has a trailing comma at line 2');
  });

  it('says an empty file is empty', () => {
    const result = parseWatchConfigText(' \n', 'watch.json');
    expect(result.ok ? '' : result.problems[0]?.message).toContain('watch.json is empty');
  });

  it('accepts a file saved with a byte order mark', () => {
    expect(parseWatchConfigText(`\uFEFF${VALID_TEXT}`, 'watch.json').ok).toBe(true);
  });
});

describe('formatConfigProblems', () => {
  const problems: ConfigProblem[] = [
    { path: '$.network', value: 'main', message: 'must be "mainnet" or "testnet"' },
    { path: '$.startHeight', value: undefined, message: 'is required' },
  ];

  it('names the file and the count, then one line per problem with its path and the value found, if any', () => {
    expect(formatConfigProblems(problems, 'watch.json')).toBe(
      ['watch.json: 2 problems in the watch config:', '  $.network: must be "mainnet" or "testnet" (found: "main")', '  $.startHeight: is required'].join('\n'),
    );
  });

  it('cuts a long value short', () => {
    const text = formatConfigProblems([{ path: '$.addresses[0]', value: 'S'.repeat(10_000), message: 'bad' }], 'w.json');
    expect(text.split('\n')[1]!.length).toBeLessThan(120);
    expect(text).toContain('...');
  });

  it('keeps a value with line breaks on one line', () => {
    const text = formatConfigProblems([{ path: '$.network', value: 'main\nnet', message: 'bad' }], 'w.json');
    expect(text.split('\n')).toHaveLength(2);
  });

  it('is the message of a WatchConfigError, which keeps the problems', () => {
    const error = new WatchConfigError(problems, 'watch.json');
    expect(error.message).toBe(formatConfigProblems(problems, 'watch.json'));
    expect(error.problems).toBe(problems);
  });
});

describe('loadWatchConfigFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a valid file', async () => {
    const path = join(dir, 'valid.json');
    await writeFile(path, VALID_TEXT);
    await expect(loadWatchConfigFile(path)).resolves.toMatchObject({ network: 'mainnet', startHeight: 'latest' });
  });

  it('throws a WatchConfigError listing the problems of an invalid file', async () => {
    const path = join(dir, 'invalid.json');
    await writeFile(path, JSON.stringify({ network: 'main', contracts: [POX5], confirmations: -1 }));
    const error = await loadWatchConfigFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WatchConfigError);
    expect((error as WatchConfigError).problems.map((p) => p.path)).toEqual(['$.network', '$.confirmations']);
    expect((error as Error).message).toContain(`${path}: 2 problems`);
  });

  it('throws a WatchConfigError that names a missing file and what to do', async () => {
    const path = join(dir, 'missing.json');
    const error = await loadWatchConfigFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WatchConfigError);
    expect((error as Error).message).toContain(`${path} does not exist; create it (copy watch.example.json)`);
  });

  it('throws a WatchConfigError for a directory', async () => {
    const error = await loadWatchConfigFile(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WatchConfigError);
    expect((error as Error).message).toContain('is a directory');
  });
});

describe('the watch configs shipped in the repository', () => {
  it('watch.json is a valid mainnet config that starts at the latest block', async () => {
    const config = await loadWatchConfigFile(repoFile('watch.json'));
    expect(config).toMatchObject({ network: 'mainnet', startHeight: 'latest' });
    expect(config.contracts.length).toBeGreaterThan(0);
    expect(config.addresses.length).toBeGreaterThan(0);
    expect(config.contractLogs.map((r) => r.contractId)).toContain(POX5);
  });

  it('watch.example.json is valid and shows every field', async () => {
    const config = await loadWatchConfigFile(repoFile('watch.example.json'));
    expect(config.contractLogs.some((r) => r.contains !== undefined)).toBe(true);
    expect(config.contractLogs.some((r) => r.where !== undefined)).toBe(true);
    expect(config.calls?.length).toBeGreaterThan(0);
    expect(config.transfers.some((r) => r.cooldownMinutes !== undefined)).toBe(true);
    expect(config.balances.some((r) => r.above !== undefined && r.below !== undefined)).toBe(true);
    const raw = JSON.parse(await readFile(repoFile('watch.example.json'), 'utf8')) as object;
    expect(Object.keys(raw).sort()).toEqual(
      [
        '$schema',
        '$comment',
        'network',
        'contracts',
        'contractsRule',
        'addresses',
        'addressesRule',
        'contractLogs',
        'transfers',
        'calls',
        'windows',
        'balances',
        'startHeight',
        'confirmations',
        'maxBlocksPerRun',
        'smsPerRun',
      ].sort(),
    );
  });

  it('every principal shipped passes validateStacksAddress', async () => {
    for (const file of ['watch.json', 'watch.example.json']) {
      const config = await loadWatchConfigFile(repoFile(file));
      const ids = [...config.contracts, ...config.addresses, ...config.contractLogs.map((r) => r.contractId), ...(config.calls ?? []).map((r) => r.contractId)];
      expect(ids.map((id) => id.split('.')[0]!).filter((a) => !validateStacksAddress(a))).toEqual([]);
    }
  });
});
