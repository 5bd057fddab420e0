// Each chat channel's exact request, under its service's limits and with hostile on-chain text, sent to a
// real local HTTP server standing in for the standIn().
import { describe, expect, it } from 'vitest';
import { chatView } from '../../lambda/channels/chat-view';
import { channelsFromEnv, chatChannels } from '../../lambda/channels/registry';
import { ChatSettingsError } from '../../lambda/channels/channel';
import { sendChat } from '../../lambda/adapters/chat/chat-sender';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { contractLog, retraction, transfer, TX_ID } from '../render/alerts';
import { useStandIn } from './stand-in';

const HOSTILE = `<b>bold</b> <!channel> @everyone \u202egnp.exe\u202c ${'\n'.repeat(50)}line ${'x'.repeat(1_000_000)}`;
const hostileLog = () => contractLog({ value_repr: HOSTILE, rule: 'Vault print', severity: 'critical' });

const standIn = useStandIn();

const channel = (env: Record<string, string>) => {
  const [configured] = channelsFromEnv(env);
  if (!configured) throw new Error('no channel configured');
  return configured;
};

async function post(env: Record<string, string>, alert: Alert) {
  const request = channel(env).request(chatView(alert));
  expect(request).not.toBeNull();
  expect(await sendChat(request!, { sleep: async () => {} })).toMatchObject({ ok: true });
  return standIn().received.at(-1)!;
}

const text = (value: unknown) => JSON.stringify(value);

/** A view with more and longer fields than any service takes, full of characters its format escapes. */
const crowded = (alert: Alert) => ({
  ...chatView(alert),
  fields: Array.from({ length: 30 }, (_, i) => [`key-${i}`, `<b>&*_${'&<'.repeat(600)}`] as const),
});

async function postView(env: Record<string, string>, view: ReturnType<typeof crowded>) {
  const request = channel(env).request(view);
  expect(await sendChat(request!, { sleep: async () => {} })).toMatchObject({ ok: true });
  return standIn().received.at(-1)!;
}

describe('Slack', () => {
  it('posts the fallback text and blocks, severity first, with a button to the explorer', async () => {
    const got = await post({ SLACK_WEBHOOK_URL: `${standIn().url}/services/T/B/X` }, transfer({ rule: 'Treasury inflow', severity: 'critical' }));
    expect(got).toMatchObject({ method: 'POST', path: '/services/T/B/X', headers: { 'content-type': 'application/json' } });
    expect(got.body.text).toMatch(/^CRITICAL: /);
    const blocks = got.body.blocks as { type: string; text?: { text: string }; elements?: { url?: string }[] }[];
    expect(blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(blocks[1]!.elements![0]).toMatchObject({ text: 'CRITICAL · rule: Treasury inflow' });
    expect(blocks.at(-1)!.elements![0]!.url).toBe(`https://explorer.hiro.so/txid/${TX_ID}?chain=mainnet`);
  });

  it('escapes on-chain text so it forms no mention or link, and stays under every Slack limit', async () => {
    const got = await post({ SLACK_WEBHOOK_URL: `${standIn().url}/hook` }, hostileLog());
    const blocks = got.body.blocks as { type: string; text?: { text: string } }[];
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(blocks[0]!.text!.text.length).toBeLessThanOrEqual(150);
    for (const block of blocks.filter((b) => b.type === 'section')) expect(block.text!.text.length).toBeLessThanOrEqual(3_000);
    expect(text(got.body)).not.toMatch(/<!channel>|<b>|\u202e|\\n\\n\\n/);
    expect(text(got.body)).toContain('&lt;!channel&gt;');
  });
});

describe('Discord', () => {
  it("posts one embed coloured by severity, under Discord's limits, and lets no text mention anyone", async () => {
    const got = await post({ DISCORD_WEBHOOK_URL: `${standIn().url}/api/webhooks/1/abc` }, hostileLog());
    expect(got.body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = got.body.embeds as { title: string; description: string; color: number; fields: { name: string; value: string }[] }[];
    expect(embed!.color).toBe(0xd32f2f);
    expect(embed!.title).toMatch(/^CRITICAL: /);
    expect(embed!.title.length).toBeLessThanOrEqual(256);
    expect(embed!.description.length).toBeLessThanOrEqual(4_096);
    expect(embed!.fields.length).toBeLessThanOrEqual(25);
    for (const field of embed!.fields) expect(field.value.length).toBeLessThanOrEqual(1_024);
    expect(text(embed)).not.toMatch(/\u202e/);
  });

  it('keeps the embed under 6,000 characters in all, cutting the last field that fits and saying more was left out', async () => {
    const got = await post0(`${standIn().url}/api/webhooks/1/abc`);
    const [embed] = got.body.embeds as { title: string; description: string; fields: { name: string; value: string }[] }[];
    const total = embed!.title.length + embed!.description.length + embed!.fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(6_000);
    expect(embed!.fields.length).toBeGreaterThan(3);
    expect(embed!.fields.at(-2)!.value).toMatch(/… \(cut\)$/);
    expect(embed!.fields.at(-1)).toEqual({ name: '…', value: 'more in the explorer' });
  });

  const post0 = (url: string) => postView({ DISCORD_WEBHOOK_URL: url }, crowded(transfer({ severity: 'critical' })));
});

describe('Telegram', () => {
  const env = () => ({ TELEGRAM_BOT_TOKEN: '123:secret', TELEGRAM_CHAT_ID: '-100200', TELEGRAM_API_URL: standIn().url });

  it('calls sendMessage with HTML where every on-chain string is escaped, within 4,096 characters', async () => {
    const got = await post(env(), hostileLog());
    expect(got.path).toBe('/bot123:secret/sendMessage');
    expect(got.body).toMatchObject({ chat_id: '-100200', parse_mode: 'HTML', disable_web_page_preview: true });
    const message = got.body.text as string;
    expect(message.startsWith('<b>CRITICAL</b>: ')).toBe(true);
    expect(message.length).toBeLessThanOrEqual(4_096);
    expect(message).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(message).not.toMatch(/\u202e/);
  });

  it("keeps the fields that fit, cut only between escapes, and says the rest is in the watcher's output", async () => {
    const got = await postView(env(), crowded(transfer({ severity: 'critical' })));
    const message = got.body.text as string;
    expect(message.length).toBeLessThanOrEqual(4_096);
    expect(message).toContain('<b>key-0</b>: &lt;b&gt;&amp;*_&amp;&lt;');
    expect(message).toContain("… (cut: the whole alert is in the watcher's output)");
    expect(message).toMatch(/<a href="https:\/\/explorer\.hiro\.so\/txid\/[^"]+">Open in the explorer<\/a>$/);
    // Every & starts a whole entity: no entity was split by a cut.
    expect(message.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
  });

  it('refuses half a configuration, naming what is missing', () => {
    expect(() => channelsFromEnv({ TELEGRAM_BOT_TOKEN: '1:x' })).toThrow(ChatSettingsError);
    expect(() => channelsFromEnv({ TELEGRAM_BOT_TOKEN: '1:x' })).toThrow(/TELEGRAM_CHAT_ID/);
  });
});

describe('PagerDuty', () => {
  const env = (extra: Record<string, string> = {}) => ({ PAGERDUTY_ROUTING_KEY: 'R0UT1NG', PAGERDUTY_EVENTS_URL: `${standIn().url}/v2/enqueue`, ...extra });

  it('triggers with the alert key as dedup_key, so a re-delivery opens no second incident', async () => {
    const alert = transfer({ severity: 'critical', rule: 'Treasury inflow' });
    const first = await post(env(), alert);
    const again = await post(env(), alert);
    expect(first.body).toMatchObject({
      routing_key: 'R0UT1NG',
      event_action: 'trigger',
      dedup_key: alert.key,
      payload: { source: 'stacks-watch', severity: 'critical', custom_details: { rule: 'Treasury inflow' } },
      links: [{ href: `https://explorer.hiro.so/txid/${TX_ID}?chain=mainnet` }],
    });
    expect(again.body.dedup_key).toBe(first.body.dedup_key);
  });

  it('resolves the incident of a retracted alert', async () => {
    const got = await post(env(), retraction({ severity: 'critical' }));
    expect(got.body).toEqual({ routing_key: 'R0UT1NG', event_action: 'resolve', dedup_key: `token_transfer:${TX_ID}:0` });
  });

  it('pages only at or above its severity (critical unless PAGERDUTY_MIN_SEVERITY says)', () => {
    const warning = chatView(transfer({ severity: 'warning' }));
    expect(channel(env()).request(warning)).toBeNull();
    expect(channel(env({ PAGERDUTY_MIN_SEVERITY: 'warning' })).request(warning)).not.toBeNull();
    expect(() => channelsFromEnv(env({ PAGERDUTY_MIN_SEVERITY: 'urgent' }))).toThrow(/PAGERDUTY_MIN_SEVERITY/);
  });
});

describe('every channel', () => {
  it('is configured only by its variables, and only to https (http to this machine alone)', () => {
    expect(channelsFromEnv({})).toEqual([]);
    expect(Object.keys(chatChannels)).toEqual(['slack', 'discord', 'telegram', 'pagerduty']);
    expect(() => channelsFromEnv({ SLACK_WEBHOOK_URL: 'http://hooks.example.com/x' })).toThrow(/https/);
    expect(channelsFromEnv({ SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X' }).map((c) => c.name)).toEqual(['slack']);
  });
});

describe('sending', () => {
  const request = () => ({ url: `${standIn().url}/hook/secret-token`, body: { text: 'hi' } });

  it('waits as a 429 asks (Retry-After) and tries again', async () => {
    standIn().answers.push({ status: 429, headers: { 'retry-after': '2' }, body: 'slow down' });
    const waits: number[] = [];
    const result = await sendChat(request(), { sleep: async (ms) => void waits.push(ms) });
    expect(result).toEqual({ ok: true, attempts: 2 });
    expect(waits).toEqual([2_000]);
    expect(standIn().received).toHaveLength(2);
  });

  it("retries a 5xx with backoff, and gives up after its attempts with the service's answer", async () => {
    standIn().answers.push(...Array.from({ length: 3 }, () => ({ status: 503, body: 'maintenance' })));
    const result = await sendChat(request(), { sleep: async () => {} });
    expect(result).toEqual({ ok: false, attempts: 3, reason: 'HTTP 503: maintenance' });
  });

  it('does not retry a refusal, and never reports the URL (it holds a secret)', async () => {
    standIn().answers.push({ status: 404, body: 'no_such_hook' });
    const result = await sendChat(request(), { sleep: async () => {} });
    expect(result).toEqual({ ok: false, attempts: 1, reason: 'HTTP 404: no_such_hook' });
    expect(text(result)).not.toContain('secret-token');
  });

  it('gives up at once when asked to wait longer than it may', async () => {
    standIn().answers.push({ status: 429, headers: { 'retry-after': '3600' } });
    const result = await sendChat(request(), { sleep: async () => {} });
    expect(result).toMatchObject({ ok: false, attempts: 1, reason: expect.stringMatching(/asked to wait 3600 s/) });
  });
});
