// The committed settings file (deploy.json at the root, or `-c settingsFile=PATH`): the deploy settings every
// `cdk deploy` and `cdk synth` reads, so that a deploy is the same without remembering its `-c` flags.
// `-c key=value` still overrides one value for one deploy (deploy-settings.ts); deploy.schema.json, generated
// from the same zod schema (`npm run schema`), lets editors complete and check it.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { syntaxProblems } from '../../lambda/config/watch-config';
import { DeploySettingsError, type SettingsFileValues } from './deploy-settings';

export const DEFAULT_SETTINGS_FILE = 'deploy.json';

/** The file's values, or DeploySettingsError when it is missing, not JSON, or not one object. */
export function readSettingsFile(path: string, source = path): SettingsFileValues {
  if (!existsSync(path)) {
    throw new DeploySettingsError([
      `${source} not found (${path}): it holds the deploy settings every deploy reads; ` +
        'restore it from git, copy deploy.example.json to it, or name another with -c settingsFile=PATH',
    ]);
  }
  const text = readFileSync(path, 'utf8');
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let values: unknown;
  try {
    values = JSON.parse(body);
  } catch (error) {
    throw new DeploySettingsError(syntaxProblems(body, source, error).map(({ message }) => message));
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new DeploySettingsError([`${source} at $: must be one JSON object of settings, like {"alertEmails": ["you@example.com"]}`]);
  }
  return { source, values: values as Record<string, unknown> };
}

/** The settings file `context` names (default deploy.json), resolved against `cwd`. */
export function settingsFileFor(context: (key: string) => unknown, cwd: string): SettingsFileValues {
  const given = context('settingsFile');
  const name = typeof given === 'string' && given.trim() !== '' ? given.trim() : DEFAULT_SETTINGS_FILE;
  return readSettingsFile(resolve(cwd, name), name);
}
