// A link to a section lands on it: every `page.md#anchor` of the README and docs/ names a heading of that page,
// so a section renamed or moved to a page of its own cannot leave links pointing at the top of the old one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, slug, withoutCode } from './markdown-anchors';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('links to a section', () => {
  it('name a heading of the page they point to', () => {
    const broken = PAGES.flatMap((page) =>
      [...withoutCode(readFileSync(join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s#]*\.md)?#([^)\s]+)\)/g)].flatMap((m) => {
        const target = m[1] ? relative(ROOT, resolve(ROOT, dirname(page), m[1])) : page;
        return anchorsOf(ROOT, target).has(m[2]!) ? [] : [`${page} → ${target}#${m[2]}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('are checked against the anchors GitHub makes', () => {
    expect(slug('5b. The monthly bill, from the synthesized template')).toBe('5b-the-monthly-bill-from-the-synthesized-template');
    expect(slug("5d. A window's entries on every run")).toBe('5d-a-windows-entries-on-every-run');
    expect(slug('Deploy settings (deploy.json)')).toBe('deploy-settings-deployjson');
    expect(slug('Cooldowns and mutes on any rule: `cooldownMinutes`, `mutedUntil`')).toBe('cooldowns-and-mutes-on-any-rule-cooldownminutes-muteduntil');
  });
});
