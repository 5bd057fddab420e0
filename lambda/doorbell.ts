// The doorbell's composition root: a Lambda function URL that a push source (a Chainhook relay, a cron, a
// script) rings to have the watcher look at the chain now instead of at its next scheduled tick. A ring
// carries nothing the watcher trusts: once its signature passes (lambda/runtime/doorbell-ring.ts), it runs
// the watcher's own cycle, under the same run lease and cursor, so a ring can never double or skip an alert;
// the schedule stays the backstop that looks even when nobody rings.
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { Context } from 'aws-lambda';
import { handler as watch, SAFETY_MARGIN_MS, type InvocationResult } from './handler';
import { DOORBELL_EVENT, judgeRing, type RingRequest } from './runtime/doorbell-ring';

/** The secret is read from Secrets Manager at most this often per container. */
const SECRET_MAX_AGE_SECONDS = 300;
/** A ring that finds a cycle running waits for it this long at most, looking again every second. */
export const FOLLOW_UP_WAIT_MS = 20_000;
const FOLLOW_UP_POLL_MS = 1_000;
/** A follow-up cycle starts only with this much work time left before the safety margin. */
const FOLLOW_UP_MIN_WORK_MS = 10_000;

export interface RingResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

function answer(statusCode: number, body: Record<string, unknown>): RingResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const leaseHeld = (result: InvocationResult) => 'stoppedBecause' in result && result.stoppedBecause === 'lease-held';

export async function handler(event: RingRequest, context: Context): Promise<RingResponse> {
  const secret = await readDoorbellSecret(process.env.DOORBELL_SECRET_ARN);
  if (!secret) return answer(503, { message: 'the doorbell secret is not readable or blank; nothing was started' });
  const judgement = judgeRing(event, secret, Date.now());
  if (!judgement.ring) return answer(judgement.statusCode, { message: judgement.message });
  // One cycle in flight: the lease. A ring during a cycle waits (bounded) for it to end and then looks once
  // more, since the running cycle may have read the tip before the block that rang; the function's reserved
  // concurrency of 1 makes that wait the only follow-up, and Lambda answers any other ring meanwhile with 429.
  const waitUntil = Date.now() + Math.min(FOLLOW_UP_WAIT_MS, context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS - FOLLOW_UP_MIN_WORK_MS);
  for (;;) {
    const result = await watch(DOORBELL_EVENT, context);
    if (!leaseHeld(result)) {
      return answer(200, { message: 'looked', blocksScanned: 'blocksScanned' in result ? result.blocksScanned : 0 });
    }
    if (Date.now() + FOLLOW_UP_POLL_MS > waitUntil) break;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_POLL_MS));
  }
  return answer(202, { message: 'a cycle is running; it or the next scheduled one will look' });
}

/** The shared secret as plain text; undefined when unreadable or blank (a blank key would sign for anyone). */
async function readDoorbellSecret(arn: string | undefined): Promise<string | undefined> {
  if (!arn) return undefined;
  try {
    const value = await getSecret(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  } catch (error) {
    const cause = ((error as Error).cause ?? error) as Error;
    console.error(JSON.stringify({ level: 'ERROR', message: `cannot read the doorbell secret ${arn}: ${cause.name}` }));
    return undefined;
  }
}
