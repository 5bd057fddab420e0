// A claim's proof is a test a reader can open: every test file the docs name exists where they say it is, so
// a test moved or renamed cannot leave a page pointing at nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** `test/…` paths named in code spans: a file, or a folder when it ends with a slash. */
const namedPaths = (text: string) => [...text.matchAll(/`(test\/[\w./-]+)`/g)].map((m) => m[1]!);

describe('the tests the docs name', () => {
  it('exist at the path each page gives', () => {
    const missing = PAGES.flatMap((page) =>
      namedPaths(readFileSync(join(ROOT, page), 'utf8'))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page} → ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('exist in test/reliability when the guarantees give a bare file name, as they say they do', () => {
    const text = readFileSync(join(ROOT, 'docs/guarantees.md'), 'utf8');
    const bare = [...text.matchAll(/`([\w-]+\.test\.ts)`/g)].map((m) => m[1]!);
    expect(bare.length).toBeGreaterThan(5);
    expect(bare.filter((name) => !existsSync(join(ROOT, 'test/reliability', name)))).toEqual([]);
  });
});
