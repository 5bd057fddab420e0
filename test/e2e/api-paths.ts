// The two ways the watcher reads the chain, for suites that must give the same alerts through both: the v2
// routes as Hiro serves them today, and the v3 routes the client switches to once every deprecated route
// answers 410 Gone. A suite records each run's stdout per path; `samePrintedLines` then holds the paths to
// the same lines, in the same order.
import { describe, expect, it } from 'vitest';
import { ROUTES, type FakeHiro } from '../support/fake-hiro';

export interface ApiPath {
  name: string;
  /** The routes answering 410 Gone. */
  retired: readonly string[];
}

export const API_PATHS: readonly ApiPath[] = [
  { name: 'the v2 routes', retired: [] },
  { name: 'the v3 routes, every deprecated route answering 410', retired: [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block] },
];

export function useApiPath(fake: FakeHiro, path: ApiPath): void {
  fake.retire(...path.retired);
}

/** stdout of each run, by path name, in run order. */
export class PrintedLines {
  private readonly byPath = new Map<string, string[]>();

  record(path: ApiPath, stdout: string): string {
    const runs = this.byPath.get(path.name) ?? [];
    runs.push(stdout);
    this.byPath.set(path.name, runs);
    return stdout;
  }

  /** A test, after the suites of every path, that they printed the same lines run by run. */
  samePrintedLines(suite: string): void {
    describe(`${suite}: both API paths`, () => {
      it('print the same output, line for line, run by run', () => {
        const [v2, v3] = API_PATHS.map((path) => this.byPath.get(path.name) ?? []);
        expect(v2!.length).toBeGreaterThan(0);
        expect(v3).toEqual(v2);
      });
    });
  }
}
