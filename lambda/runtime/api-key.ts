// The Hiro API key, read from Secrets Manager (cached per container by Powertools) and never logged.
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/** The API key is read from Secrets Manager at most this often per container. */
const SECRET_MAX_AGE_SECONDS = 300;

/** The secret holds the key as plain text, or as JSON with an `apiKey` field. The key is never logged. */
export async function readApiKey(secretArn: string): Promise<string | undefined> {
  let value: unknown;
  try {
    value = await getSecret(secretArn, { maxAge: SECRET_MAX_AGE_SECONDS });
  } catch (error) {
    // Powertools wraps the SDK's error in a GetParameterError; its cause names what went wrong (AccessDenied, NotFound...).
    const cause = ((error as Error).cause ?? error) as Error;
    throw new Error(`cannot read the API key secret ${secretArn}: ${cause.name}; check that it exists and the function may read it`);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined; // an empty secret: run without a key
  const text = value.trim();
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as { apiKey?: unknown };
    if (typeof parsed.apiKey === 'string' && parsed.apiKey) return parsed.apiKey;
  } catch {
    // not JSON after all: fall through to the error below, which does not echo the value
  }
  throw new Error(`the API key secret ${secretArn} holds JSON without a string "apiKey" field`);
}
