// Chat delivery from `npm start`: each channel posts from its own queue in the background, with its own
// bounded retries, against real local HTTP servers standing in for Slack, Discord and PagerDuty. A hanging
// service holds back nothing but its own posts, a post that may have been made is never made twice (except
// where the service de-duplicates), each delivery is recorded per channel, and the operator hears once per outage.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { channelsFromEnv } from '../../lambda/channels/registry';
import { render } from '../../lambda/core/render';
import type { PublishOutcome, Publisher } from '../../lambda/core/ports';
import { withChatChannels, type ChatQueueSettings } from '../../lambda/local/chat-publisher';
import { FileStateStore } from '../../lambda/adapters/file/file-state-store';
import { memoryChatLog, type ChatDelivery, type ChatDeliveryLog } from '../../lambda/adapters/chat/chat-delivery';
import { transfer } from '../render/alerts';
import { useStandIn } from './stand-in';

const slack = useStandIn();
const discord = useStandIn();
const pagerduty = useStandIn();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chat-queue-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const BOUND = { timeout: 5_000, interval: 10 };
const alert = (n: number) => transfer({ key: `token_transfer:0x${String(n).padStart(64, '0')}`, rule: 'Treasury inflow', severity: 'critical' });
const outgoing = (n: number) => [{ alert: alert(n), rendering: render(alert(n)) }];

/** The primary output (stdout in the runner): what it printed, in order. */
function printer() {
  const printed: string[] = [];
  const publisher: Publisher = {
    publish: async (alerts): Promise<PublishOutcome> => {
      printed.push(...alerts.map((a) => a.alert.key));
      return { failed: [], undeliverable: [] };
    },
  };
  return { printed, publisher };
}

/** A delivery log that keeps every record it is given, in order. */
function recordingLog(): ChatDeliveryLog & { last(key: string, channel: string): ChatDelivery | undefined } {
  const records: Array<[string, string, ChatDelivery]> = [];
  return {
    record: async (key, channel, delivery) => void records.push([key, channel, delivery]),
    unfinished: async () => [],
    last: (key, channel) => records.filter(([k, c]) => k === key && c === channel).at(-1)?.[2],
  };
}

function setUp(env: Record<string, string>, settings: ChatQueueSettings = {}) {
  const { printed, publisher } = printer();
  const log = recordingLog();
  const said: string[] = [];
  const chat = withChatChannels(publisher, channelsFromEnv(env), log, (level, message) => void said.push(`${level}: ${message}`), {
    sleep: async () => {},
    ...settings,
  });
  return { chat, printed, log, said };
}

const slackEnv = () => ({ SLACK_WEBHOOK_URL: `${slack().url}/slack` });
const discordEnv = () => ({ DISCORD_WEBHOOK_URL: `${discord().url}/discord` });
const pagerDutyEnv = () => ({ PAGERDUTY_ROUTING_KEY: 'R0UT1NG', PAGERDUTY_EVENTS_URL: `${pagerduty().url}/pd` });

describe('channels deliver independently of each other and of the cycle', () => {
  it('a hanging Slack holds back neither Discord nor the next alerts printed', async () => {
    slack().answers.push({ status: 0, hang: true }, { status: 0, hang: true });
    const { chat, printed, log } = setUp({ ...slackEnv(), ...discordEnv() }, { timeoutMs: 60_000 });

    // Both publishes return while Slack has not answered the first post.
    await chat.publish(outgoing(1));
    await chat.publish(outgoing(2));
    expect(printed).toEqual([alert(1).key, alert(2).key]);
    await vi.waitFor(() => expect(discord().received).toHaveLength(2), BOUND);
    await vi.waitFor(() => expect(log.last(alert(2).key, 'discord')?.state).toBe('sent'), BOUND);
    expect(slack().received).toHaveLength(1);
    expect(log.last(alert(2).key, 'slack')?.state).toBe('queued');

    await chat.drain(50);
    expect(log.last(alert(1).key, 'slack')).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: expect.stringMatching(/runner stopped while it was being posted: it may or may not be in slack/),
    });
    expect(log.last(alert(2).key, 'slack')).toMatchObject({ state: 'failed', attempts: 0, reason: 'not posted: the runner stopped first' });
    expect(slack().received).toHaveLength(1);
  });
});

describe('a long run of posts', () => {
  it("leaves no link to its queue's stop signal per post (AbortSignal.any: Node 20 keeps each for good)", async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const { chat, log } = setUp(slackEnv());
      for (let n = 40; n < 60; n++) await chat.publish(outgoing(n));
      await chat.idle();
      expect(log.last(alert(59).key, 'slack')?.state).toBe('sent');
      expect(any).not.toHaveBeenCalled();
    } finally {
      any.mockRestore();
    }
  });
});

describe('a post is never made twice where the service does not de-duplicate', () => {
  it('a Slack post left without an answer in time is not posted again, and says it may be in the channel', async () => {
    slack().answers.push({ status: 0, hang: true });
    const { chat, log } = setUp(slackEnv(), { timeoutMs: 200 });
    await chat.publish(outgoing(3));
    await chat.idle();
    expect(slack().received).toHaveLength(1);
    expect(log.last(alert(3).key, 'slack')).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: expect.stringMatching(/^no answer in 0\.2 s: it may or may not be in slack, and is not posted again/),
    });
  });

  it('a Slack 500 (which may have posted) is not posted again; a 429 and a 503 (which did not) are', async () => {
    slack().answers.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }, { status: 200 }, { status: 500, body: 'oops' });
    const { chat, log } = setUp(slackEnv());
    await chat.publish(outgoing(4));
    await chat.publish(outgoing(5));
    await chat.idle();
    expect(slack().received).toHaveLength(4);
    expect(log.last(alert(4).key, 'slack')).toMatchObject({ state: 'sent', attempts: 3 });
    expect(log.last(alert(5).key, 'slack')).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: expect.stringMatching(/^HTTP 500: oops: it may or may not be in slack/),
    });
  });

  it('a PagerDuty event left without an answer is sent again under the same dedup_key, which opens one incident', async () => {
    pagerduty().answers.push({ status: 0, hang: true });
    const { chat, log } = setUp(pagerDutyEnv(), { timeoutMs: 200 });
    await chat.publish(outgoing(6));
    await chat.idle();
    expect(pagerduty().received.map((r) => r.body.dedup_key)).toEqual([alert(6).key, alert(6).key]);
    expect(log.last(alert(6).key, 'pagerduty')).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('gives up after its bounded attempts, with the reason of the last', async () => {
    slack().answers.push({ status: 503, body: 'down' }, { status: 503, body: 'down' }, { status: 503, body: 'down' });
    const { chat, log } = setUp(slackEnv());
    await chat.publish(outgoing(7));
    await chat.idle();
    expect(slack().received).toHaveLength(3);
    expect(log.last(alert(7).key, 'slack')).toMatchObject({ state: 'failed', attempts: 3, reason: 'HTTP 503: down (3 attempts)' });
  });
});

describe('the operator is told once per outage', () => {
  it('says the first failure once, says when the channel takes alerts again, and says the next outage', async () => {
    slack().answers.push({ status: 400, body: 'invalid_payload' }, { status: 400 }, { status: 400 }, { status: 200 }, { status: 404, body: 'no_service' });
    const { chat, said } = setUp(slackEnv());
    for (const n of [10, 11, 12, 13, 14]) await chat.publish(outgoing(n));
    await chat.idle();
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(`^warn: slack did not take the alert ${alert(10).key}: HTTP 400: invalid_payload; .*said once until slack takes one again`),
      ),
      'info: slack takes alerts again',
      expect.stringMatching(new RegExp(`^warn: slack did not take the alert ${alert(14).key}: HTTP 404: no_service`)),
    ]);
  });
});

describe('delivery records in the state file', () => {
  it("keeps each channel's delivery beside the alert, across a reopen of the file", async () => {
    const path = join(dir, 'kept.json');
    const store = await FileStateStore.open(path, 'mainnet');
    slack().answers.push({ status: 400, body: 'invalid_token' });
    const { publisher } = printer();
    const chat = withChatChannels(publisher, channelsFromEnv({ ...slackEnv(), ...discordEnv() }), store, () => {}, { sleep: async () => {} });
    await chat.publish(outgoing(20));
    await chat.idle();
    const reopened = await FileStateStore.open(path, 'mainnet');
    const doc = (reopened as unknown as { doc: { chat: Record<string, Record<string, ChatDelivery>> } }).doc;
    expect(doc.chat[alert(20).key]).toMatchObject({ slack: { state: 'failed', reason: 'HTTP 400: invalid_token' }, discord: { state: 'sent', attempts: 1 } });
  });

  it('a restart records what the last run left queued or retrying as failed, and says so once per channel', async () => {
    const path = join(dir, 'left.json');
    const store = await FileStateStore.open(path, 'mainnet');
    await store.record('a', 'slack', { state: 'queued', attempts: 0, at: 1 });
    await store.record('b', 'slack', { state: 'retrying', attempts: 1, at: 1, reason: 'HTTP 503' });
    await store.record('b', 'discord', { state: 'sent', attempts: 1, at: 1 });
    const said: string[] = [];
    const reopened = await FileStateStore.open(path, 'mainnet');
    const chat = withChatChannels(printer().publisher, channelsFromEnv(slackEnv()), reopened, (_level, message) => void said.push(message));
    await chat.reportUnfinished();

    expect(await reopened.unfinished()).toEqual([]);
    expect(said).toEqual(['2 alerts were left unposted to slack by the last run: recorded as failed (`npm start -- history` lists them)']);
    const doc = (reopened as unknown as { doc: { chat: Record<string, Record<string, ChatDelivery>> } }).doc;
    expect(doc.chat.a!.slack).toMatchObject({ state: 'failed', reason: 'the runner stopped before it was posted' });
    expect(doc.chat.b!.slack).toMatchObject({ state: 'failed', reason: expect.stringMatching(/may or may not be in the channel/) });
    expect(doc.chat.b!.discord).toMatchObject({ state: 'sent' });
  });

  it('a DynamoDB runner keeps them in memory only', async () => {
    const log = memoryChatLog();
    await log.record('a', 'slack', { state: 'queued', attempts: 0, at: 1 });
    expect(await log.unfinished()).toEqual([]);
  });
});
