// The chat notifier on SNS-shaped events: each record's alert posted to the channel its SSM parameter
// configures (a local server stands in for the service), one bad record not blocking the others.
import type { SNSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { notify } from '../../lambda/notifier/handler';
import type { Alert } from '../../lambda/core/alert-kinds/alert';
import { retraction, transfer, TX_ID } from '../render/alerts';
import { useStandIn } from '../channels/stand-in';

function event(...messages: string[]): SNSEvent {
  return {
    Records: messages.map((Message, i) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:alerts:sub',
      Sns: {
        MessageId: `m-${i}`,
        Message,
        Type: 'Notification',
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:alerts',
        Timestamp: '',
        SignatureVersion: '2',
        Signature: '',
        SigningCertUrl: '',
        UnsubscribeUrl: '',
        Subject: null as unknown as string,
        MessageAttributes: {},
      },
    })),
  } as SNSEvent;
}
const json = (alert: Alert) => JSON.stringify(alert);

const standIn = useStandIn();

describe('the chat notifier', () => {
  const slack = () => ({ CHAT_CHANNEL: 'slack', CHAT_PARAMETER: '/stacks-watch/slack' });
  const reads: string[] = [];
  const deps = (secret: string) => ({ readSecret: async (name: string) => (reads.push(name), secret), send: { sleep: async () => {} } });

  it('posts each alert of the event to the channel its parameter names', async () => {
    const result = await notify(
      event(json(transfer({ severity: 'critical' })), json(transfer({ key: 'token_transfer:0x02' }))),
      deps(`${standIn().url}/slack/hook`),
      slack(),
    );
    expect(result).toEqual({ posted: 2, skipped: 0 });
    expect(reads.at(-1)).toBe('/stacks-watch/slack');
    expect(standIn().received.map((r) => r.path)).toEqual(['/slack/hook', '/slack/hook']);
    expect(standIn().received[0]!.body.text).toMatch(/^CRITICAL: /);
  });

  it("takes a parameter holding the channel's variables as JSON, and resolves PagerDuty incidents on retractions", async () => {
    const secret = JSON.stringify({ PAGERDUTY_ROUTING_KEY: 'R0UT1NG', PAGERDUTY_EVENTS_URL: `${standIn().url}/pd`, PAGERDUTY_MIN_SEVERITY: 'warning' });
    await notify(event(json(retraction({ severity: 'warning' }))), deps(secret), { CHAT_CHANNEL: 'pagerduty', CHAT_PARAMETER: '/pd' });
    expect(standIn().received[0]!.body).toEqual({ routing_key: 'R0UT1NG', event_action: 'resolve', dedup_key: `token_transfer:${TX_ID}:0` });
  });

  it('posts the good records of a batch and then fails, naming the bad one, so Lambda retries and parks it', async () => {
    const run = notify(
      event(json(transfer()), '{"not": "an alert"}', json(transfer({ key: 'token_transfer:0x03' }))),
      deps(`${standIn().url}/slack/hook`),
      slack(),
    );
    await expect(run).rejects.toThrow(/slack did not take 1 alert\(s\): m-1: the message is not a stacks-watch alert/);
    expect(standIn().received).toHaveLength(2);
  });

  it('fails when the service keeps refusing, with its answer and never the webhook URL', async () => {
    standIn().answers.push(...Array.from({ length: 3 }, () => ({ status: 403, body: 'invalid_token' })));
    const run = notify(event(json(transfer())), deps(`${standIn().url}/slack/secret-hook`), slack());
    await expect(run).rejects.toThrow(/HTTP 403: invalid_token/);
    await expect(notify(event(json(transfer())), deps(`${standIn().url}/slack/secret-hook`), slack()).catch((e: Error) => e.message)).resolves.not.toContain(
      'secret-hook',
    );
  });

  it('refuses a parameter that does not configure its channel', async () => {
    await expect(notify(event(json(transfer())), deps('{"SLACK_WEBHOOK_URL": ""}'), slack())).rejects.toThrow(/does not configure slack/);
    await expect(notify(event(json(transfer())), deps(''), slack())).rejects.toThrow(/empty or missing/);
  });
});
