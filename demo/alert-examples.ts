// `npm run docs:alerts`: writes docs/alerts.md from what `npm run demo -- --json` prints, so the examples are
// the watcher's real output and stay so: the first alert of each type, as an email (subject and body) and as
// its JSON line. Kinds the demo does not raise (the SMS digest) are shown from the registry's sample.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ALERT_TYPES, alertKinds } from '../lambda/core/alert-kinds/registry';
import type { Alert, AlertType } from '../lambda/core/alert-kinds/alert';
import { render } from '../lambda/core/render';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Headings, in the order docs/alert-reference.md lists the kinds. */
const TITLES: Record<AlertType, string> = {
  contract_status: 'Contract deployment status',
  token_transfer: 'STX transfer to a watched address',
  stx_transfer: 'STX moved inside a contract call',
  ft_transfer: 'Fungible token movement (sBTC here)',
  nft_transfer: 'NFT movement',
  contract_log: 'Log printed by a watched contract',
  contract_call: 'Call to a watched contract',
  retraction: 'Retraction after a reorg',
  deep_reorg: 'Deep reorg (for the operator)',
  sms_digest: 'SMS digest (for SMS subscribers only)',
};

function demoJson(): Promise<Alert[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'demo/run.ts', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DEMO_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the demo exited with ${code}`));
      resolve(out.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Alert));
    });
  });
}

function section(alert: Alert, fromDemo: boolean): string {
  const { subject, email } = render(alert);
  return [
    `## ${TITLES[alert.type]} (\`${alert.type}\`)`,
    '',
    ...(fromDemo ? [] : ['Not raised by the demo; the registry\'s sample. SNS delivers it only to SMS subscriptions, as this text:', '', '```', render(alert).sms, '```', '']),
    '```',
    subject,
    '',
    email.trimEnd(),
    '```',
    '',
    '```json',
    JSON.stringify(alert),
    '```',
    '',
  ].join('\n');
}

const alerts = await demoJson();
const firstOfType = new Map<AlertType, Alert>();
for (const alert of alerts) if (!firstOfType.has(alert.type)) firstOfType.set(alert.type, alert);
const order = (Object.keys(TITLES) as AlertType[]).filter((type) => ALERT_TYPES.includes(type));
const sections = order.flatMap((type) => {
  const seen = firstOfType.get(type);
  if (seen) return [section(seen, true)];
  return type === 'sms_digest' ? [section(alertKinds.sms_digest.sample, false)] : [];
});
const missing = ALERT_TYPES.filter((type) => !order.includes(type) || (!firstOfType.has(type) && type !== 'sms_digest'));

const doc = [
  '# Alert examples',
  '',
  'Every kind of alert as `npm run demo` raises it, for people (the email: subject, then body; `npm start`',
  'prints a shorter terminal form) and for programs (`npm start -- --json`, one JSON object per line; the fields',
  'are listed in alert-reference.md). Written by `npm run docs:alerts` from the demo\'s output; the',
  'values come from the demo\'s fake chain, so addresses and hashes are not real ones. A named rule\'s name leads',
  'the subject, the SMS and the terminal line (the call, the sBTC mint below); every alert carries `rule` and',
  '`severity`.',
  '',
  ...sections,
].join('\n');
await writeFile(new URL('../docs/alerts.md', import.meta.url), doc);
process.stdout.write(`docs/alerts.md: ${sections.length} kinds from ${alerts.length} demo alerts\n`);
if (missing.length > 0) {
  process.stderr.write(`no example for: ${missing.join(', ')} (add a demo step that raises it)\n`);
  process.exitCode = 1;
}
