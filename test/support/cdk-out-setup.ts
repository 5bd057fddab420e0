// Global setup of the infra suites: one folder for the run's cloud assemblies (test/infra/support/synth.ts),
// removed after the run. A synth shared by the suites of a worker outlives the file that made it, so its
// assembly cannot be removed with that file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder for cloud assemblies; empty when no global setup made one. */
    cdkOutRoot: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-cdk-run-'));
  project.provide('cdkOutRoot', dir);
  return () => rm(dir, { recursive: true, force: true });
}
