// Reads the Hiro API settings from the environment, the same way for the CLI and the Lambda.
import type { FetchWay } from '../core/follow/fetch-choice';
import { DEFAULT_BASE_URLS, RATE_LIMIT_WITH_KEY, RATE_LIMIT_WITHOUT_KEY } from '../hiro/options';

export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

/** The Hiro client options the environment sets (a subset of HiroClientOptions, passed on as is). */
export interface ApiSettings {
  baseUrl: string;
  apiKey?: string;
  requestsPerMinute: number;
}

/** Without STACKS_API_URL the API is Hiro's public one for the watched network. */
export function readApiSettings(
  env: NodeJS.ProcessEnv,
  apiKey: string | undefined = env.STACKS_API_KEY,
  network: keyof typeof DEFAULT_BASE_URLS = 'mainnet',
): ApiSettings {
  const baseUrl = env.STACKS_API_URL?.trim() || DEFAULT_BASE_URLS[network];
  const key = apiKey?.trim() || undefined;
  const rpmText = env.STACKS_API_RPM?.trim();
  let requestsPerMinute = key ? RATE_LIMIT_WITH_KEY : RATE_LIMIT_WITHOUT_KEY;
  if (rpmText) {
    const rpm = Number(rpmText);
    if (!Number.isInteger(rpm) || rpm < 1 || rpm > 100_000) {
      throw new EnvironmentError(`STACKS_API_RPM must be a whole number of requests per minute (1 to 100000), got "${rpmText}"`);
    }
    requestsPerMinute = rpm;
  }
  return { baseUrl, requestsPerMinute, ...(key ? { apiKey: key } : {}) };
}

/** The ways FETCH_WAY accepts (core/follow/fetch-choice.ts): the block scan, the plan's choice (the default), or per subject. */
export const FETCH_WAYS: readonly FetchWay[] = ['block-scan', 'auto', 'per-subject'];

/** FETCH_WAY: how a run reads the chain; unset or empty is `auto`, the cheaper way the rules allow. */
export function readFetchWay(env: NodeJS.ProcessEnv): FetchWay {
  const text = env.FETCH_WAY?.trim() || 'auto';
  if (!(FETCH_WAYS as readonly string[]).includes(text)) {
    throw new EnvironmentError(`FETCH_WAY must be ${FETCH_WAYS.join(', ')}, got "${env.FETCH_WAY}"`);
  }
  return text as FetchWay;
}
