import { describe, expect, it } from 'vitest';
import { codePointCount, codePointEnd } from '../../lambda/core/render/code-points';

// Each text beside what the string iterator (Array.from) makes of it: the helpers must agree with it exactly.
const TEXTS = ['', 'plain ascii', 'é and 中文', '🚀🚀 emoji pairs', 'a\uD800lone high', 'lone low\uDC00z', '\uDBFF', 'end\uD83D', '👩‍👩‍👧 joined'];

describe('counting and cutting by code points', () => {
  it.each(TEXTS)('counts %j as the string iterator does', (text) => {
    expect(codePointCount(text)).toBe(Array.from(text).length);
  });

  it.each(TEXTS)('cuts %j after every count where the string iterator would', (text) => {
    const points = Array.from(text);
    for (let n = 0; n <= points.length + 1; n++) expect(text.slice(0, codePointEnd(text, n))).toBe(points.slice(0, n).join(''));
  });

  it('never ends a cut between the halves of a surrogate pair', () => {
    expect(codePointEnd('🚀x', 1)).toBe(2);
  });
});
