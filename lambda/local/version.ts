// The version `--version` prints: package.json's, read at run time beside the sources (the layer rules keep
// lambda/ from importing files outside it); npm's own variable when the file is not there (a bundle).
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  try {
    const found = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown }).version;
    if (typeof found === 'string') return found;
  } catch {
    // not beside the sources: fall through
  }
  return process.env.npm_package_version ?? 'unknown';
}
