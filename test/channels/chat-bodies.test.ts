// What a person reads in each chat channel: a rule named in words, amounts in the asset's units, failures in
// words, addresses whole, a link for every alert that has a transaction or block, on-chain URLs that stay
// text, and every body within what the service takes (the stand-in refuses what the service would refuse).
import { describe, expect, it } from 'vitest';
import { chatView, type ChatView } from '../../lambda/channels/chat-view';
import { channelsFromEnv, chatChannels } from '../../lambda/channels/registry';
import { sendChat } from '../../lambda/adapters/chat/chat-sender';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { alertKinds, ALERT_TYPES } from '../../lambda/core/alert-kinds/registry';
import { defaultTransferRuleName } from '../../lambda/core/rules/transfer-rules';
import { defaultLogRuleName } from '../../lambda/core/rules/contract-log-rules';
import { c32address } from 'c32check';
import { contractLog, transfer } from '../render/alerts';
import { useStandIn } from './stand-in';
import { telegramText } from './service-rules';

const standIn = useStandIn();

const every = () =>
  channelsFromEnv({
    SLACK_WEBHOOK_URL: `${standIn().url}/services/T/B/X`,
    DISCORD_WEBHOOK_URL: `${standIn().url}/api/webhooks/1/abc`,
    TELEGRAM_BOT_TOKEN: '1:x',
    TELEGRAM_CHAT_ID: '-1',
    TELEGRAM_API_URL: standIn().url,
    PAGERDUTY_ROUTING_KEY: 'R',
    PAGERDUTY_EVENTS_URL: `${standIn().url}/v2/enqueue`,
    PAGERDUTY_MIN_SEVERITY: 'info',
  });

/** Each channel's body for the alert, posted to the stand-in, which refuses what its service would. */
async function bodies(alert: Alert, view: Partial<ChatView> = {}): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const channel of every()) {
    const request = channel.request({ ...chatView(alert), ...view });
    if (request === null) continue;
    const sent = await sendChat(request, { sleep: async () => {} });
    expect(sent, `${channel.name}: ${JSON.stringify(sent)}`).toMatchObject({ ok: true });
    out[channel.name] = standIn().received.at(-1)!.body;
  }
  return out;
}

/** `count` distinct mainnet addresses of full length (41 characters). */
const principals = (count: number) => Array.from({ length: count }, (_, i) => c32address(22, (i + 1).toString(16).padStart(8, 'f').repeat(5)));

const sample = (type: (typeof ALERT_TYPES)[number]) => alertKinds[type].sample as Alert;
const whole = (value: unknown) => JSON.stringify(value);

describe('a long default rule name', () => {
  it('reaches every channel, within its limits, when a rule lists 100 addresses', async () => {
    const rule = defaultTransferRuleName({ asset: 'stx', to: principals(100), from: [] } as never);
    expect(rule.length).toBeGreaterThan(4_096);
    const got = await bodies(transfer({ rule, severity: 'critical' }));
    expect(Object.keys(got)).toEqual(Object.keys(chatChannels));
  });

  it("is cut by each channel itself, whatever name it is given: 15,000 addresses fit PagerDuty's 512 KB and Telegram's 4,096", async () => {
    const rule = defaultTransferRuleName({ asset: 'stx', to: principals(15_000), from: [] } as never);
    expect(rule.length).toBeGreaterThan(600_000);
    const got = await bodies(transfer({ rule, severity: 'critical' }), { rule });
    expect(Object.keys(got)).toEqual(Object.keys(chatChannels));
    expect(whole(got.pagerduty).length).toBeLessThan(20_000);
  });

  it('reads as what the rule watches: no JSON, its first addresses whole, the rest counted, bounded', () => {
    const many = principals(100);
    const label = chatView(transfer({ rule: defaultTransferRuleName({ asset: 'stx', to: many, from: [] } as never) })).rule;
    expect(label).toContain(`${many[0]}, ${many[1]}, ${many[2]} and 97 more`);
    expect(label.length).toBeLessThanOrEqual(300);
    const where = defaultLogRuleName({ contractId: `${many[0]}.vault`, where: { event: 'deposit', amount: { gte: '1000000' } } } as never);
    const logLabel = chatView(contractLog({ rule: where })).rule;
    expect(logLabel).not.toMatch(/[{}]|contractLogs:/);
    expect(logLabel).toContain(`${many[0]}.vault`);
    expect(logLabel).toContain('event is "deposit"');
    expect(logLabel).toContain('amount ≥ 1,000,000');
  });

  it('keeps a name someone chose as it is', () => {
    expect(chatView(transfer({ rule: 'Treasury inflow' })).rule).toBe('Treasury inflow');
  });
});

describe('words a person reads, in every channel', () => {
  it("says why a call failed in words, not the chain's status", async () => {
    const got = await bodies(sample('contract_call'));
    for (const [name, body] of Object.entries(got)) {
      expect(whole(body), name).toContain('the contract refused: err u102');
      expect(whole(body), name).not.toContain('abort_by_response');
    }
  });

  it("gives amounts in the asset's units: STX in STX, tokens with their decimals", async () => {
    for (const type of ['token_transfer', 'stx_transfer', 'ft_transfer', 'pending_transfer', 'pending_call'] as const) {
      const got = await bodies(sample(type));
      for (const [name, body] of Object.entries(got)) {
        expect(whole(body), `${type} ${name}`).not.toMatch(/micro-STX|base units|\d\.\d*0 STX/);
      }
    }
    expect(whole((await bodies(sample('ft_transfer'))).telegram)).toMatch(/Amount<\/b>: [\d,.]+ sBTC/);
  });

  it('shows addresses whole outside the subject', async () => {
    for (const type of ALERT_TYPES.filter((t) => t !== 'sms_digest')) {
      for (const [label, value] of chatView(sample(type)).fields) {
        expect(value, `${type} ${label}`).not.toMatch(/S[PMTN][0-9A-Z]{1,6}(\.\.\.|…)[0-9A-Z]{2,4}/);
      }
    }
    expect(chatView(sample('contract_status_summary')).fields).toContainEqual([
      'Not found',
      expect.stringContaining('SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v3-01'),
    ]);
  });

  it('links every alert that has a transaction or a block to the explorer', () => {
    for (const type of ALERT_TYPES.filter((t) => t !== 'sms_digest' && t !== 'contract_status_summary')) {
      expect(chatView(sample(type)).link, type).toMatch(/^https:\/\/explorer\.hiro\.so\/(txid|block)\/0x[0-9a-f]+\?chain=mainnet$/);
    }
    expect(chatView(sample('deep_reorg')).link).toMatch(/\/block\/0x/);
  });
});

describe('URLs written on chain', () => {
  const HOOK = 'claim at https://evil.example/drain?x=1 or www.evil.example now';
  const log = () => contractLog({ value_repr: `"${HOOK}"`, rule: 'Vault print', severity: 'critical' });

  it('reach Slack as text: mrkdwn verbatim, the URL in a code span', async () => {
    const { slack } = await bodies(log());
    const texts = JSON.stringify(slack);
    expect(texts).toContain('`https://evil.example/drain?x=1`');
    expect(texts).toContain('`www.evil.example`');
    const blocks = slack!.blocks as { text?: { type: string; verbatim?: boolean }; elements?: { type: string; verbatim?: boolean }[] }[];
    const mrkdwn = blocks.flatMap((b) => [b.text, ...(b.elements ?? [])]).filter((t) => t?.type === 'mrkdwn');
    expect(mrkdwn.length).toBeGreaterThan(0);
    for (const text of mrkdwn) expect(text!.verbatim).toBe(true);
  });

  it('reach Discord as text: the URL in a code span, never a markdown link', async () => {
    const { discord } = await bodies(log());
    const value = whole(discord);
    expect(value).toContain('`https://evil.example/drain?x=1`');
    expect(value).not.toMatch(/[^`]https:\/\/evil/);
  });

  it('reach Telegram as text: the URL in <code>, which Telegram does not turn into a link', async () => {
    const { telegram } = await bodies(log());
    const html = String(telegram!.text);
    expect(html).toContain('<code>https://evil.example/drain?x=1</code>');
    expect(html).toContain('<code>www.evil.example</code>');
    expect(telegramText(html)).not.toHaveProperty('error');
    // The explorer link is still one.
    expect(html).toMatch(/<a href="https:\/\/explorer\.hiro\.so\/txid\//);
  });
});

describe('ids that read like domain names', () => {
  it('stay text, not code: a contract id, a shortened principal in the subject, an asset id', async () => {
    const { telegram } = await bodies(sample('contract_status'));
    expect(String(telegram!.text)).not.toContain('<code>');
    const vault = await bodies({ ...sample('contract_status'), contract_id: 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.vault' } as Alert);
    expect(String(vault.telegram!.text)).toContain('contract SP4S...PBG.vault deployed');
    expect(String(vault.telegram!.text)).not.toContain('<code>');
    const ft = await bodies(sample('ft_transfer'));
    expect(String(ft.telegram!.text)).not.toContain('<code>');
  });
});

describe('the stand-in', () => {
  const post = async (path: string, body: Record<string, unknown>) => sendChat({ url: `${standIn().url}${path}`, body }, { sleep: async () => {} });

  it('refuses what each service refuses, as the service answers it', async () => {
    expect(await post('/bot1:x/sendMessage', { text: 'x'.repeat(4_097) })).toMatchObject({ ok: false, reason: expect.stringContaining('message is too long') });
    expect(await post('/bot1:x/sendMessage', { text: '<b>open' })).toMatchObject({ ok: false, reason: expect.stringContaining("can't parse entities") });
    expect(await post('/services/T/B/X', { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('invalid_blocks'),
    });
    const field = { name: 'n', value: 'v'.repeat(1_000) };
    expect(await post('/api/webhooks/1/a', { embeds: [{ title: 't', fields: Array.from({ length: 7 }, () => field) }] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Invalid Form Body'),
    });
    expect(await post('/v2/enqueue', { dedup_key: 'k', event_action: 'trigger', payload: { summary: 's'.repeat(1_025), source: 's' } })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('summary'),
    });
    expect(
      await post('/v2/enqueue', {
        dedup_key: 'k',
        event_action: 'trigger',
        payload: { summary: 's', source: 's', custom_details: { x: 'x'.repeat(600_000) } },
      }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('413') });
  });
});
