// The README is a front page, and every page it leads to is there: a link that points nowhere, or a README
// grown back into a manual, fails the suite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Relative link targets of a markdown page, outside code blocks, without their #anchors. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^(https?:|mailto:|#)/.test(target))
    .map((target) => target.split('#')[0]!);
}

describe('the README and the docs', () => {
  it('keep the README a front page of at most 10 KB', () => {
    expect(Buffer.byteLength(readFileSync(join(ROOT, 'README.md')))).toBeLessThanOrEqual(10_240);
  });

  it('link only to files that exist', () => {
    const broken = pages.flatMap((page) =>
      relativeLinks(readFileSync(join(ROOT, page), 'utf8'))
        .filter((target) => !existsSync(resolve(ROOT, dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('show in the README a config the watcher accepts as written', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const configs = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);
    expect(configs).toHaveLength(1);
    expect(parseWatchConfig(configs[0])).toMatchObject({ ok: true });
  });

  it('name in the README every family of thing the watcher alerts on', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const family of ['contract deployments', 'contract logs', 'contract calls', 'STX movements', 'fungible tokens', 'NFTs', 'reorgs', 'memos']) {
      expect(readme).toContain(family);
    }
  });
});
