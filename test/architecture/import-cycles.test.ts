// No import circle in the shipped code, type imports included: a circle ties its files into one unit that
// can only be read, tested and changed together (the kinds once formed one with domain.ts).
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph';

describe('the import graph of lambda/ and infra/', () => {
  it('has no circle, counting type imports', () => {
    expect(importCircles(importGraph(['lambda', 'infra']))).toEqual([]);
  });

  it('reports a circle, and the files on it, when one exists', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('sees type-only imports', () => {
    const graph = importGraph(['lambda']);
    // kind.ts imports nothing but types.
    expect(graph.get('lambda/core/alert-kinds/kind.ts')).toContain('lambda/core/domain.ts');
  });
});
