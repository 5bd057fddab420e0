// The real CLI (`lambda/cli.ts`) bundled with esbuild, as the deploy bundles the handler: node starts the
// bundle in a fraction of the time tsx takes to compile the sources on every start, and the CLI suites start
// it a few hundred times. The test run's global setup (cli-bundle-setup.ts) builds it once from the sources
// before any suite and hands its path to them (`runCliBundle()`); a file run without that setup bundles its own.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles `lambda/cli.ts` into `dir`/cli.mjs; returns its path. */
export async function bundleCliInto(dir: string): Promise<string> {
  const outfile = join(dir, 'cli.mjs');
  await build({
    entryPoints: [join(ROOT, 'lambda/cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS dependencies call require(), which an ES module lacks.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's CLI bundle, built by the global setup; empty when none was. */
    cliBundle: string;
  }
}

/** The run's CLI bundle, when the global setup built one. */
export function runCliBundle(): string | undefined {
  return inject('cliBundle') || undefined;
}
