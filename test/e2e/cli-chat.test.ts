// Chat channels from `npm start`, end to end: the real CLI against the fake Hiro API, with a local server
// standing in for Slack and PagerDuty. Each alert prints on stdout first, then reaches every channel whose
// variables are set; a channel that keeps failing is logged and changes nothing else.
import { afterAll, describe, expect, it } from 'vitest';
import { coinbase, fakeAddress, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { startStandIn, type StandIn } from '../channels/stand-in';
import { jsonLines, runCli } from './run-cli';

const treasury = fakeAddress('treasury');

describe('the CLI posts alerts to the chat channels it is given', () => {
  let chat: StandIn;
  const suite = cliSuite({
    name: 'chat',
    config: { network: 'mainnet', addresses: [treasury], addressesRule: { name: 'Treasury inflow', severity: 'critical' }, startHeight: 1 },
    setup: async ({ chain }) => {
      chat = await startStandIn();
      chain.mine([coinbase()]);
      chain.mine([transfer({ to: treasury, amount: 5_000_000, memo: 'rent' })]);
    },
    setupTimeoutMs: 20_000,
  });
  afterAll(async () => {
    await chat?.close();
  });

  it('prints each alert and posts it to Slack and PagerDuty', async () => {
    const run = await suite.run(suite.args('a.json'), {
      env: { SLACK_WEBHOOK_URL: `${chat.url}/slack/T/B/X`, PAGERDUTY_ROUTING_KEY: 'R0UT1NG', PAGERDUTY_EVENTS_URL: `${chat.url}/pagerduty` },
    });
    expect(run.code, run.stderr).toBe(0);
    const [alert] = jsonLines(run.stdout);
    expect(alert).toMatchObject({ type: 'token_transfer', rule: 'Treasury inflow', severity: 'critical' });
    expect(run.stderr).toContain('alerts also go to slack, pagerduty');
    // Each channel posts from its own queue: the two arrive in either order.
    expect(chat.received.map((r) => r.path).sort()).toEqual(['/pagerduty', '/slack/T/B/X']);
    expect(chat.received.find((r) => r.path === '/slack/T/B/X')!.body.text).toMatch(/^CRITICAL: /);
    expect(chat.received.find((r) => r.path === '/pagerduty')!.body).toMatchObject({ event_action: 'trigger', dedup_key: alert!.key });
  }, 60_000);

  it('keeps printing and exits 0 when a channel keeps failing, saying what it answered', async () => {
    chat.received.length = 0;
    chat.answers.push(...Array.from({ length: 3 }, () => ({ status: 500, body: 'slack is down' })));
    const run = await suite.run(suite.args('b.json'), { env: { SLACK_WEBHOOK_URL: `${chat.url}/slack/T/B/X` } });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toHaveLength(1);
    expect(run.stderr).toMatch(/slack did not take the alert token_transfer:0x[0-9a-f]+: HTTP 500: slack is down/);
    expect(run.stderr).not.toContain('/slack/T/B/X');
    const history = await suite.run(['history', '--state', suite.args('b.json').at(-1)!]);
    expect(history.stdout).toMatch(/chat: slack failed: HTTP 500: slack is down/);
  }, 60_000);

  it('posts past a hanging Slack: PagerDuty gets the alert, Slack is posted once, and history says what became of it', async () => {
    chat.received.length = 0;
    chat.answers.length = 0;
    const slow = await startStandIn();
    slow.answers.push(...Array.from({ length: 3 }, () => ({ status: 0, hang: true })));
    try {
      const env = { SLACK_WEBHOOK_URL: `${slow.url}/slack/T/B/X`, PAGERDUTY_ROUTING_KEY: 'R0UT1NG', PAGERDUTY_EVENTS_URL: `${chat.url}/pagerduty` };
      // The run ends once Slack's post has had its 10 s and the exit's drain its bound: more than a plain run.
      const run = await suite.run(suite.args('d.json'), { env, timeoutMs: 45_000 });
      expect(run.code, run.stderr).toBe(0);
      const [alert] = jsonLines(run.stdout);
      expect(chat.received.map((r) => r.body.dedup_key)).toEqual([alert!.key]);
      expect(slow.received).toHaveLength(1);
      const history = await suite.run(['history', '--state', suite.args('d.json').at(-1)!]);
      expect(history.stdout).toMatch(
        /chat: slack failed: [^\n]*it may or may not be in slack[^\n]* · pagerduty sent|chat: pagerduty sent · slack failed: [^\n]*may or may not be in slack/,
      );
    } finally {
      await slow.close();
    }
  }, 90_000);

  it('refuses a channel variable that is set but wrong, before watching', async () => {
    // Without the suite's request budget: this run is refused before it reads anything.
    const run = await runCli(suite.args('c.json'), { STACKS_API_URL: suite.server.url, TELEGRAM_BOT_TOKEN: '1:x' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Telegram needs both TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID');
  }, 60_000);
});
