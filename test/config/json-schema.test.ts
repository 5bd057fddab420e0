// The JSON Schema editors read for watch.json: generated from the watcher's own zod schema, committed, and
// current; it accepts every config the project ships or shows, and flags the mistakes it can express.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { WATCH_SCHEMA_PATH, watchSchemaText } from '../../scripts/watch-schema';
import { parseWatchConfig } from '../../lambda/config/watch-config';

const repoFile = (path: string) => new URL(`../../${path}`, import.meta.url);
const committed = () => readFileSync(WATCH_SCHEMA_PATH, 'utf8');
const validator = () => new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(committed()) as object);

/** Every whole config a markdown page shows: the JSON blocks the watcher accepts (others are fragments, alerts, state). */
function configsIn(path: string): unknown[] {
  const text = readFileSync(repoFile(path), 'utf8');
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((m) => {
    try {
      const value = JSON.parse(m[1]!) as unknown;
      return parseWatchConfig(value).ok ? [value] : [];
    } catch {
      return []; // alert lines, one JSON object a line
    }
  });
}

describe('watch.schema.json', () => {
  it('is what `npm run schema` writes from the zod schema today', () => {
    expect(committed()).toBe(watchSchemaText());
  });

  it('is named by every shipped config, which the watcher accepts with it', () => {
    for (const [path, ref] of [
      ['watch.json', './watch.schema.json'],
      ['watch.example.json', './watch.schema.json'],
      ['demo/watch.json', '../watch.schema.json'],
    ] as const) {
      const config = JSON.parse(readFileSync(repoFile(path), 'utf8')) as Record<string, unknown>;
      expect(config.$schema, path).toBe(ref);
      expect(parseWatchConfig(config), path).toMatchObject({ ok: true });
    }
  });

  it('accepts every shipped config and every config the docs show: it is never stricter than the watcher', () => {
    const validate = validator();
    const docs = [
      'README.md',
      ...readdirSync(repoFile('docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const configs = [
      ...['watch.json', 'watch.example.json', 'demo/watch.json'].map((path) => ({ path, config: JSON.parse(readFileSync(repoFile(path), 'utf8')) as unknown })),
      ...docs.flatMap((path) => configsIn(path).map((config) => ({ path, config }))),
    ];
    expect(configs.length).toBeGreaterThan(6);
    for (const { path, config } of configs) expect(validate(config) ? [] : validate.errors, path).toEqual([]);
  });

  it.each([
    ['a misspelled key', { network: 'mainnet', adresses: ['SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR'] }],
    ['a network that is neither', { network: 'main', contracts: ['SP000000000000000000002Q6VF78.pox-5'] }],
    ['a negative confirmations', { network: 'mainnet', contracts: ['SP000000000000000000002Q6VF78.pox-5'], confirmations: -1 }],
    ['a number in quotes', { network: 'mainnet', contracts: ['SP000000000000000000002Q6VF78.pox-5'], maxBlocksPerRun: '500' }],
    ['an unknown key in a rule', { network: 'mainnet', transfers: [{ asset: 'stx', to: ['SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR'], minimum: '1' }] }],
    ['a severity it does not know', { network: 'mainnet', contractsRule: { severity: 'urgent' }, contracts: ['SP000000000000000000002Q6VF78.pox-5'] }],
  ])('flags %s, as the watcher does', (_what, config) => {
    expect(validator()(config)).toBe(false);
    expect(parseWatchConfig(config)).toMatchObject({ ok: false });
  });
});
