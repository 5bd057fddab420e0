// `npm run schema` (with watch-schema.ts): writes deploy.schema.json, the JSON Schema editors use to complete and
// check deploy.json (`"$schema": "./deploy.schema.json"`), generated from the zod schema the synth validates the
// settings with, so the two cannot drift (a test fails while the committed file is not what this writes).
// JSON Schema cannot say everything the synth checks (a filter's 150 combinations, an endpoint listed twice):
// `npx cdk synth` still names each such problem.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { settingsSchema } from '../infra/settings/deploy-settings';

export const DEPLOY_SCHEMA_PATH = fileURLToPath(new URL('../deploy.schema.json', import.meta.url));

/** What each setting holds, shown by editors on hover (the reference is docs/deploy-and-operations.md). */
const DESCRIPTIONS: Record<string, string> = {
  $schema: 'This file: "./deploy.schema.json", for editors.',
  $comment: 'Ignored by the deploy: a note, or a list of notes.',
  stackName: 'The CloudFormation stack name (default StacksWatch).',
  watchConfig: 'Path of the watch config, from the directory cdk runs in (default watch.json).',
  alertEmails: 'Email addresses that receive every alert.',
  alertPhoneNumbers: 'E.164 phone numbers that receive every alert by SMS, within the SMS budget, then a digest.',
  alertWebhooks: 'https:// URLs that receive every alert as an HTTPS POST.',
  alertSubscriptions: 'Subscriptions with a filter: one of "email", "sms", "https", and optional types, networks, severities, contracts, addresses.',
  chat: 'Chat channels: one of "slack", "discord", "telegram", "pagerduty" naming an SSM SecureString ("ssm:/path"), and an optional filter.',
  opsEmails: 'Email addresses that receive the alarms and operator notices.',
  scheduleMinutes: 'Minutes between runs (1 to 60).',
  latency:
    '"schedule" (when absent): one run a schedule interval; "loop" (what the shipped deploy.json sets): a turn every loopDelaySeconds, each queuing the next on SQS (docs/latency.md).',
  loopDelaySeconds: 'With latency "loop": seconds from a caught-up turn to the next (1 to 60; 8 when absent, the shipped deploy.json sets its own).',
  doorbell:
    'true: an HTTPS function URL a push source rings (signed with a created secret) to start a cycle at once; { "secretArn": ... } signs with an existing secret (docs/doorbell.md). Default false.',
  memorySize: 'The function memory in MB (256 when absent; the shipped deploy.json sets 128 with the loop).',
  timeoutSeconds: 'The function timeout in seconds (default 120).',
  apiKeySecretArn: 'The complete ARN of an existing Secrets Manager secret holding the Hiro API key.',
  createApiKeySecret: 'Create an empty secret for the Hiro API key (then put the key in it).',
  deletionProtection: 'Protect the state table from deletion (default true).',
  stacksApiUrl: "The Stacks API (https only); default Hiro's for the watch config's network.",
  stacksApiRpm: 'Requests a minute the function may send (default 50 without a key, 500 with).',
  lagAlarmSeconds: 'Tell the operations topic when the last scanned block is this old (default 600).',
  fetchWay: 'How each run reads the chain: auto (default: the cheaper way for the rules), block-scan or per-subject (docs/api-routes.md).',
  logRetentionDays: 'Days CloudWatch Logs keeps the function logs (default 30).',
  logLevel: 'DEBUG, INFO, WARN or ERROR (default INFO).',
  serviceName: 'The Powertools service name (default stacks-watch).',
  metricsNamespace: 'The CloudWatch metrics namespace (default StacksWatch).',
  reserveConcurrency: 'Reserve one concurrent execution so runs never overlap (default true).',
  dashboard: 'Add a CloudWatch dashboard ($3 a month; detailedMetrics adds it too).',
  encryptionKey: '"aws-managed" (default) or "customer": both topics under a KMS key of the stack.',
  detailedMetrics: "Send every metric on every run (about $0.30 a month each), with the lag metric's alarm and the dashboard.",
};

/** The file's schema: every setting, native JSON types, nothing else (one-deploy keys such as allowFewerSubscribers are -c only). */
export const settingsFileSchema = z.strictObject({
  $schema: z.string().optional(),
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  ...settingsSchema.shape,
});

export function deployJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(settingsFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as {
    properties: Record<string, Record<string, unknown>>;
  };
  for (const [key, description] of Object.entries(DESCRIPTIONS)) {
    if (schema.properties[key]) schema.properties[key] = { description, ...schema.properties[key] };
  }
  return { ...schema, title: 'stacks-watch deploy settings', description: 'What `cdk deploy` deploys: see docs/deploy-and-operations.md.' };
}

export const deploySchemaText = () => `${JSON.stringify(deployJsonSchema(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DEPLOY_SCHEMA_PATH, deploySchemaText());
  process.stdout.write(`wrote ${DEPLOY_SCHEMA_PATH}\n`);
}
