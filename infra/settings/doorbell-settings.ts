// The doorbell (docs/doorbell.md): an optional HTTPS endpoint a push source rings to have the watcher look
// now. `"doorbell": true` creates its shared secret in Secrets Manager; `{ "secretArn": "..." }` uses one of
// the operator's. Off by default: a deploy without it has no public endpoint at all.
import { z } from 'zod';
import { jsonValue } from './context-values';

/** Where the ring's shared secret lives. */
export type DoorbellSettings = { secret: { kind: 'created' } | { kind: 'existing'; secretArn: string } };

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$/;
const SECRET_ARN_ERROR = 'must be the complete ARN of a Secrets Manager secret (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-AbCdEf)';

/** The `doorbell` key's schema: true, false, or an object naming an existing secret. */
export const doorbellContext = {
  doorbell: jsonValue(
    z.union([z.boolean(), z.strictObject({ secretArn: z.string().regex(SECRET_ARN, { error: SECRET_ARN_ERROR }) })], {
      error: 'must be true, false or { "secretArn": "arn:aws:secretsmanager:..." }',
    }),
  ).default(false),
};

export function doorbellSettings(value: boolean | { secretArn: string }): DoorbellSettings | undefined {
  if (value === false) return undefined;
  return { secret: value === true ? { kind: 'created' } : { kind: 'existing', secretArn: value.secretArn } };
}
