// The order `npm test` starts its files in (vitest.config.ts's sequencer), the same on every machine. Vitest's
// own order is the last run's durations, longest first, and without them (a fresh clone, as CI runs) the order
// the files were found in. Longest first started every suite that mostly waits (on a child process, a server of
// its own, a scaled clock) at once: the cores idled for 10 s while every worker waited. Here the suites that
// wait are spread among those that compute, the longest of each first.

export interface SuiteOrder {
  /** Suites that spend most of their time waiting, longest first (paths from the project root). */
  waiting: readonly string[];
  /** Suites that keep a core busy longest, most CPU first; the others follow them, largest file first. */
  heavy: readonly string[];
  /** How many other suites start between two waiting ones. */
  spacing: number;
}

interface Described<T> {
  file: T;
  project: string;
  path: string;
  size: number;
}

/**
 * The files, project by project in vitest's order (a project's workers end when the next file is another
 * project's), each project's waiting suites one every `spacing` others, the others heavy first, then largest.
 */
export function orderSuites<T>(files: readonly T[], order: SuiteOrder, describe: (file: T) => Omit<Described<T>, 'file'>): T[] {
  const placeOf = (list: readonly string[]) => {
    const place = new Map(list.map((path, i) => [path, i]));
    return (entry: Described<T>) => place.get(entry.path) ?? Number.POSITIVE_INFINITY;
  };
  const waitingPlace = placeOf(order.waiting);
  const heavyPlace = placeOf(order.heavy);
  const byProject = new Map<string, Described<T>[]>();
  for (const file of files) {
    const entry = { file, ...describe(file) };
    const project = byProject.get(entry.project) ?? [];
    project.push(entry);
    byProject.set(entry.project, project);
  }
  const ordered: T[] = [];
  for (const project of [...byProject.keys()].sort()) {
    const entries = byProject.get(project)!;
    const waiting = entries.filter((e) => waitingPlace(e) !== Number.POSITIVE_INFINITY).sort((a, b) => waitingPlace(a) - waitingPlace(b));
    const others = entries
      .filter((e) => waitingPlace(e) === Number.POSITIVE_INFINITY)
      .sort((a, b) => heavyPlace(a) - heavyPlace(b) || b.size - a.size || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    others.forEach((entry, i) => {
      if (i % order.spacing === 0 && waiting.length > 0) ordered.push(waiting.shift()!.file);
      ordered.push(entry.file);
    });
    ordered.push(...waiting.map((e) => e.file));
  }
  return ordered;
}

/** `npm test`'s order. Figures from a run one file at a time; a suite renamed here fails suite-order.test.ts. */
export const SUITE_ORDER: SuiteOrder = {
  // Wall time mostly spent waiting on a child process, a server, a scaled clock or fsync; longest first.
  waiting: [
    'test/e2e/demo.test.ts', // 35 s, the demo pacing its script
    'test/e2e/cli-chat.test.ts',
    'test/e2e/cli-first-minutes.test.ts',
    'test/e2e/cli-ctrl-c.test.ts',
    'test/e2e/cli-local-runner.test.ts',
    'test/reliability/sbtc-emily-runs.test.ts',
    'test/handler/doorbell.test.ts',
    'test/handler/loop-budget.test.ts',
    'test/e2e/cli-retired-notice.test.ts',
    'test/adapters/file/state-journal.test.ts',
  ],
  // CPU, in the suite or its child processes; most first.
  heavy: [
    'test/infra/cdk-synth.test.ts', // 16 s, cdk synth and the app in child processes
    'test/reliability/crash-every-step-dynamodb.test.ts', // 10 s
    'test/bench/fetch-ways.test.ts', // 10 s
    'test/bench/cycle-measure.test.ts', // 8 s, a child process
    'test/e2e/cli.test.ts',
    'test/reliability/crash-every-step.test.ts',
    'test/e2e/cli-token-metadata.test.ts',
    'test/reliability/cli-killed.test.ts',
    'test/config/canonical-address.test.ts',
    'test/infra/cdk-nag.test.ts',
    'test/config/config-command.test.ts',
    'test/architecture/layers.test.ts',
  ],
  spacing: 3,
};
