// The memory the deployed function has, as `cdk deploy` takes it: `-c memorySize=N`, else the settings file
// (deploy.json, or `-c settingsFile=PATH`), else the stack's default for the latency mode given the same way
// (the loop's is smaller). `validate` and `push` check a watch config against the ceilings of that memory, the
// ones the function checks when it reads the version.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_SETTINGS_FILE } from '../../infra/settings/settings-file';
import { DEFAULT_MEMORY_MB } from '../../infra/settings/deploy-settings';

const asMemory = (value: unknown): number | undefined => {
  const mb = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof mb === 'number' && Number.isInteger(mb) && mb >= 128 ? mb : undefined;
};

export function functionMemoryFrom(context: Record<string, string>, cwd: string): number {
  let settings: { memorySize?: unknown } = {};
  try {
    const file = resolve(cwd, context.settingsFile?.trim() || DEFAULT_SETTINGS_FILE);
    settings = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as typeof settings;
  } catch {
    // No settings file (or one `cdk deploy` would refuse anyway): the stack's defaults.
  }
  return asMemory(context.memorySize) ?? asMemory(settings.memorySize) ?? DEFAULT_MEMORY_MB;
}
