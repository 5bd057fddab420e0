// Measured figures live in one place: the tables `npm run bench` writes into docs/benchmarks.md. Any other page
// that states one (a price with cents, a latency percentile or mean, a decimal count of requests or blocks: the
// forms the bench prints, or a table of them) links, in the same paragraph, list item or table, to the table it comes from, so a
// re-run of the bench cannot leave a stale copy behind unseen. Whole numbers (a limit of 50 requests a minute,
// a 10 s goal, a delay of 8 s) are settings and goals, not measurements, and are free to be written anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, withoutCode } from './markdown-anchors';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCHMARKS = 'docs/benchmarks.md';
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((page) => page !== BENCHMARKS);

/** The forms the bench prints its measurements in (bench/markdown.ts and the tables of bench/report.ts). */
const FIGURES: readonly RegExp[] = [
  /\$\d[\d,]*\.\d+/g, // a price with cents: $0.90, $0.0173
  /\bp\d\d:? \d+(?:\.\d+)? ?s\b/g, // a latency percentile: p90 54.9 s, p90 55 s
  /\d+\.\d+ s (?:on average|mean)\b|\bmean:? \d+\.\d+ ?s\b/g, // a mean latency: 30.2 s on average
  /\b\d+\.\d+ requests?\b/g, // a measured rate: 1.4 requests a block, 16.08 requests
  /\b\d+\.\d+ blocks? ?(?:\/ ?min|a minute|per minute)/g, // a measured pace: 33.2 blocks a minute
];

/** A page's prose in units: paragraphs, each list item on its own, each table whole; code left out. */
function units(text: string): string[] {
  const prose = text.replace(/^( *)```[\s\S]*?^\1```/gm, '').replace(/`[^`\n]*`/g, '``');
  return prose.split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/).filter((unit) => unit.trim() !== '');
}

/** A table copied from the bench: a column of what it measures (per block, per minute, a month, p90) over decimals. */
const MEASURED_COLUMN = /requests \/ (?:block|run|min)|blocks \/ (?:min|s)\b|\bp90\b|\bmean\b|a month|per alert/i;

function figuresIn(unit: string): string[] {
  const inline = FIGURES.flatMap((form) => [...unit.matchAll(form)].map((m) => m[0]));
  const [header = '', , ...rows] = unit.trim().split('\n');
  const column = header.startsWith('|') ? MEASURED_COLUMN.exec(header) : null;
  return column && rows.some((row) => /\d\.\d/.test(row)) ? [...inline, `a table of ${column[0]}`] : inline;
}

/** The anchors of benchmarks.md a unit links to. */
function benchLinks(unit: string): string[] {
  return [...unit.matchAll(/\]\((?:\.\/)?(?:docs\/)?benchmarks\.md#([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('figures measured by the bench', () => {
  it('are stated outside docs/benchmarks.md only beside a link to the table they come from', () => {
    const unlinked = PAGES.flatMap((page) =>
      units(readFileSync(join(ROOT, page), 'utf8'))
        .filter((unit) => figuresIn(unit).length > 0 && benchLinks(unit).length === 0)
        .map((unit) => `${page}: ${figuresIn(unit).join(', ')} in "${unit.trim().slice(0, 80)}…"`),
    );
    expect(unlinked).toEqual([]);
  });

  it('are linked to tables that exist: every benchmarks.md#anchor names one of its headings', () => {
    const anchors = anchorsOf(ROOT, BENCHMARKS);
    const broken = PAGES.flatMap((page) =>
      benchLinks(withoutCode(readFileSync(join(ROOT, page), 'utf8')))
        .filter((anchor) => !anchors.has(anchor))
        .map((anchor) => `${page} → benchmarks.md#${anchor}`),
    );
    expect(broken).toEqual([]);
  });

  it('appear on the README front page once at most: the headline, linked to its table', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(units(readme).flatMap(figuresIn).length).toBeLessThanOrEqual(1);
  });

  it('are recognised in the forms the bench prints, and not in settings or goals', () => {
    const stated = (text: string) => units(text).flatMap(figuresIn);
    expect(stated('About $0.90 a month; the floor is $1.07, the GETs $0.0173.')).toEqual(['$0.90', '$1.07', '$0.0173']);
    expect(stated('30.2 s on average (p90 54.9 s); p90 55 s.')).toEqual(['p90 54.9 s', 'p90 55 s', '30.2 s on average']);
    expect(stated('about 1.4 requests a block, 16.08 requests, 33.2 blocks a minute')).toEqual(['1.4 requests', '16.08 requests', '33.2 blocks a minute']);
    expect(stated('50 requests a minute, a p90 at most 10 s, a turn every 8 s, 3.5 s a try, `118.2 blocks/min`, $1 spend limit')).toEqual([]);
    expect(stated('| config | requests / block |\n| --- | --- |\n| both | 1.38 |')).toEqual(['a table of requests / block']);
    expect(stated('| ceiling | 256 MB |\n| --- | --- |\n| addresses | 250,000 |')).toEqual([]);
    expect(stated('- $0.90 here\n- and [linked](benchmarks.md#5b-x) there').length).toBe(1);
    expect(units('- $0.90 here\n- and [linked](benchmarks.md#5b-x) there').filter((u) => figuresIn(u).length > 0 && benchLinks(u).length === 0)).toHaveLength(
      1,
    );
  });
});
