// The order `npm test` starts its files in (suite-order.ts): the suites that wait spread among those that
// compute, each project's files together, and every suite the order names still there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { orderSuites, SUITE_ORDER, type SuiteOrder } from './suite-order';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
interface File {
  project: string;
  path: string;
  size: number;
}
const file = (path: string, size = 100, project = 'e2e'): File => ({ project, path, size });
const order = (files: File[], suites: SuiteOrder) => orderSuites(files, suites, (f) => f).map((f) => f.path);

describe("npm test's order", () => {
  it('starts a waiting suite every `spacing` others, longest first, the others heaviest first and then the largest', () => {
    const files = [
      file('small', 10),
      file('wait-short'),
      file('large', 900),
      file('heavy-second', 1),
      file('medium', 500),
      file('wait-long'),
      file('heavy-first', 2),
      file('tiny', 5),
    ];
    const suites = { waiting: ['wait-long', 'wait-short'], heavy: ['heavy-first', 'heavy-second'], spacing: 3 };
    expect(order(files, suites)).toEqual(['wait-long', 'heavy-first', 'heavy-second', 'large', 'wait-short', 'medium', 'small', 'tiny']);
  });

  it('puts the waiting suites left over after the others, and keeps each project together, projects by name', () => {
    const files = [file('b-unit', 100, 'unit'), file('e2e-wait'), file('a-unit', 200, 'unit'), file('e2e-other'), file('e2e-wait-2')];
    const suites = { waiting: ['e2e-wait', 'e2e-wait-2'], heavy: [], spacing: 3 };
    expect(order(files, suites)).toEqual(['e2e-wait', 'e2e-other', 'e2e-wait-2', 'a-unit', 'b-unit']);
  });

  it('names test files that exist, each once', () => {
    const named = [...SUITE_ORDER.waiting, ...SUITE_ORDER.heavy];
    expect(named.filter((path) => !existsSync(`${ROOT}${path}`) || !path.endsWith('.test.ts'))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
    expect(SUITE_ORDER.spacing).toBeGreaterThan(0);
  });
});
