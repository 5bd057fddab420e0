// The watch config the function is deployed with: read and validated at synth with the validator the
// function runs, so that a bad config fails `cdk synth` instead of every invocation after the deploy.
import { readFileSync } from 'node:fs';
import { WatchConfigError } from '../lambda/config/watch-config';
import { decimalsAtFirstRun, parseLeavingDecimalsToRead } from '../lambda/config/config-token-decimals';
import { configCeilings } from '../lambda/core/watch-config/config-ceilings';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';

export interface BundledWatchConfig {
  /** Absolute path of the validated file: the first version the deploy puts in the config bucket. */
  path: string;
  config: WatchConfig;
  /** Warnings for the synth to show: tokens whose decimals the function reads from their metadata at its first run. */
  warnings: string[];
}

function readProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return `${path} does not exist; copy watch.example.json to watch.json, or pass -c watchConfig=PATH`;
  }
  return `${path} cannot be read (${code ?? String(error)}); check the path given in -c watchConfig=PATH`;
}

/**
 * Throws WatchConfigError, whose message lists every problem as the validator reports it; the ceilings are
 * those of the function's memory, as the function checks them.
 */
export function loadBundledWatchConfig(path: string, memoryMb?: number): BundledWatchConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WatchConfigError([{ path: '$', value: undefined, message: readProblem(path, error) }], path);
  }
  // The synth runs offline: a token whose decimals only its metadata gives is left to the function to read.
  const { result, toRead } = parseLeavingDecimalsToRead(text, path, configCeilings(memoryMb));
  if (!result.ok) throw new WatchConfigError(result.problems, path);
  return {
    path,
    config: result.config,
    warnings: toRead.map((asset) => decimalsAtFirstRun(asset, 'give "decimals" in the rule to fix them now').replace(/^warning: /, '')),
  };
}
