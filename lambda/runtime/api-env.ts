// Reads the Hiro API settings from the environment, the same way for the CLI and the Lambda.

export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

export interface ApiSettings {
  baseUrl: string;
  apiKey?: string;
  requestsPerMinute: number;
}

export const DEFAULT_API_URL = 'https://api.hiro.so';

/** Requests per minute Hiro allows without a key and with one. */
export const RATE_LIMIT_WITHOUT_KEY = 50;
export const RATE_LIMIT_WITH_KEY = 500;

export function readApiSettings(env: NodeJS.ProcessEnv, apiKey: string | undefined = env.STACKS_API_KEY): ApiSettings {
  const baseUrl = env.STACKS_API_URL?.trim() || DEFAULT_API_URL;
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
