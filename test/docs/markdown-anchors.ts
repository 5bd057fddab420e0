// The anchors GitHub gives a markdown page's headings, for the docs tests that check links to sections.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A page without its fenced code blocks (a `#` line in a block is no heading). */
export const withoutCode = (text: string) => text.replace(/^( *)```[\s\S]*?^\1```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a page's headings; `page` relative to `root`. */
export const anchorsOf = (root: string, page: string) =>
  new Set([...withoutCode(readFileSync(join(root, page), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
