// The guides are reference plus links: a page that grows past 10 KB is a manual again, and what made it grow
// belongs on a focused page of its own, linked from it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDES = ['docs/rules-and-conditions.md', 'docs/deploy-and-operations.md', 'docs/running-locally.md', 'docs/guarantees.md'];

describe('the guides', () => {
  it('stay reference plus links, at most 10 KB each', () => {
    const sizes = Object.fromEntries(GUIDES.map((page) => [page, Buffer.byteLength(readFileSync(join(ROOT, page)))]));
    expect(Object.entries(sizes).filter(([, bytes]) => bytes > 10_240)).toEqual([]);
  });
});
