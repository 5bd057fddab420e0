// Global setup of the suites that start the CLI: bundles it once per test run (see cli-bundle.ts). The bundle
// lives two directories under the repository, as lambda/local/version.ts does, so that its
// `../../package.json` finds the package's version exactly as the sources do; it is removed after the run.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleCliInto } from './cli-bundle';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(ROOT, 'node_modules', '.stacks-watch-cli-'));
  project.provide('cliBundle', await bundleCliInto(dir));
  return () => rm(dir, { recursive: true, force: true });
}
