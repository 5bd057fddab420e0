// `npm run docs:alerts`: writes docs/alerts.md from what `npm run demo -- --json` prints, so the examples are
// the watcher's real output and stay so: the first alert of each type, as an email (subject and body) and as
// its JSON line. Kinds the demo does not raise (the SMS digest) are shown from the registry's sample. Then the
// chat examples of docs/chat-channels.md (demo/chat-examples.ts).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ALERT_TYPES, alertKinds } from '../lambda/core/alert-kinds/registry';
import type { Alert, AlertType } from '../lambda/core/alert-kinds/alert';
import { render, renderTerminal } from '../lambda/core/render';
import { chatView } from '../lambda/channels/chat-view';
import { EXAMPLE_CHANNELS as CHANNELS, withChatExamples } from './chat-examples';

/** Each chat channel's request body for the alert, folded away: they are long. */
function chatPayloads(alert: Alert): string[] {
  if (alert.type === 'sms_digest') return []; // for phones only
  const view = chatView(alert);
  return CHANNELS.flatMap((channel) => {
    const request = channel.request(view);
    return request === null
      ? []
      : [`<details><summary>${channel.name}</summary>`, '', '```json', JSON.stringify(request.body, null, 2), '```', '', '</details>', ''];
  });
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Headings, in the order docs/alert-reference.md lists the kinds. */
const TITLES: Record<AlertType, string> = {
  contract_status: 'Contract deployment status',
  contract_status_summary: 'First check of many contracts',
  token_transfer: 'STX transfer to a watched address',
  stx_transfer: 'STX moved inside a contract call',
  ft_transfer: 'Fungible token movement (sBTC here)',
  nft_transfer: 'NFT movement',
  balance_threshold: 'A watched balance crossed a threshold',
  contract_log: 'Log printed by a watched contract',
  contract_call: 'Call to a watched contract',
  window_threshold: 'Window crossing (failed vault calls in 10 minutes)',
  retraction: 'Retraction after a reorg',
  deep_reorg: 'Deep reorg (for the operator)',
  chain_health: 'Chain health: the chain stopped, the API is stale, no new tenure (and moving again)',
  sms_digest: 'SMS digest (for SMS subscribers only)',
  cooldown_summary: "What a rule's cooldown held back",
  pending_call: 'Call waiting in the mempool',
  pending_transfer: 'STX transfer waiting in the mempool',
  pending_dropped: 'Waiting transaction dropped unmined',
  sbtc_lifecycle: "sBTC deposit or withdrawal past a signers' deadline",
  sbtc_settlement: 'sBTC deposit minted or withdrawal accepted, then settled',
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
      resolve(
        out
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Alert),
      );
    });
  });
}

/** Kinds the demo does not raise, shown by their registry sample, with why. */
const SAMPLE_ONLY: Partial<Record<AlertType, string>> = {
  sms_digest: 'SNS delivers it only to SMS subscriptions.',
  contract_status_summary: 'The demo watches too few contracts: more than 5 first seen in one check are summed up in it.',
  sbtc_lifecycle: 'The demo has no Bitcoin side; the sBTC lifecycle tracker raises it (docs/sbtc.md).',
  sbtc_settlement: 'The demo has no Bitcoin side; the sBTC lifecycle tracker raises it with the `settled` follow-up on (docs/sbtc.md).',
  chain_health: 'The demo\'s chain never stops for 10 minutes; its "moving again" alert has the same fields with `phase: "ended"` and `resolves`.',
};

function section(alert: Alert, fromDemo: boolean): string {
  const { subject, email, sms } = render(alert);
  return [
    `## ${TITLES[alert.type]} (\`${alert.type}\`)`,
    '',
    ...(fromDemo ? [] : [`Not raised by the demo; the registry's sample. ${SAMPLE_ONLY[alert.type] ?? ''}`, '']),
    'Email:',
    '',
    '```',
    subject,
    '',
    email.trimEnd(),
    '```',
    '',
    `SMS (${sms.length} characters):`,
    '',
    '```',
    sms,
    '```',
    '',
    'Terminal (`npm start`):',
    '',
    '```',
    renderTerminal(alert).trimEnd(),
    '```',
    '',
    'JSON (`--json`, webhooks, the SNS message):',
    '',
    '```json',
    JSON.stringify(alert),
    '```',
    '',
    ...chatPayloads(alert),
  ].join('\n');
}

const alerts = await demoJson();
const firstOfType = new Map<AlertType, Alert>();
for (const alert of alerts) if (!firstOfType.has(alert.type)) firstOfType.set(alert.type, alert);
const order = (Object.keys(TITLES) as AlertType[]).filter((type) => ALERT_TYPES.includes(type));
const sections = order.flatMap((type) => {
  const seen = firstOfType.get(type);
  if (seen) return [section(seen, true)];
  return SAMPLE_ONLY[type] !== undefined ? [section(alertKinds[type].sample as Alert, false)] : [];
});
const missing = ALERT_TYPES.filter((type) => !order.includes(type) || (!firstOfType.has(type) && SAMPLE_ONLY[type] === undefined));

const doc = [
  '# Alert examples',
  '',
  'Every kind of alert as `npm run demo` raises it, in every form it is sent in: the email (subject, then body),',
  'the SMS, the terminal block of `npm start`, the JSON for programs (`npm start -- --json`, webhooks; the fields',
  "are listed in alert-reference.md), and the request each chat channel gets (chat-channels.md). Written by `npm run docs:alerts` from the demo's output; the",
  "values come from the demo's fake chain, so addresses and hashes are not real ones. A named rule's name leads",
  'the subject, the SMS and the terminal line (the call, the sBTC mint below); every alert carries `rule` and',
  '`severity`.',
  '',
  ...sections,
].join('\n');
await writeFile(new URL('../docs/alerts.md', import.meta.url), doc);
process.stdout.write(`docs/alerts.md: ${sections.length} kinds from ${alerts.length} demo alerts\n`);
const chatDoc = new URL('../docs/chat-channels.md', import.meta.url);
await writeFile(chatDoc, withChatExamples(await readFile(chatDoc, 'utf8')));
process.stdout.write('docs/chat-channels.md: the chat examples\n');
if (missing.length > 0) {
  process.stderr.write(`no example for: ${missing.join(', ')} (add a demo step that raises it)\n`);
  process.exitCode = 1;
}
