// What a webhook receives: SNS delivers, with raw message delivery, the `default` body of the message the
// publisher builds (it has no `https` key): the alert JSON. The example receiver of docs/webhooks.md gets it here from a
// local HTTP server, with the headers SNS sends, and confirms a subscription through SubscribeURL.
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildSnsMessage } from '../../../lambda/adapters/sns/sns-message';
import type { Alert, TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { render } from '../../../lambda/core/render';
// @ts-expect-error: the example is plain JavaScript, copied as it is by readers
import { createReceiver } from '../../../docs/examples/webhook-receiver.mjs';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(onAlert: (alert: unknown) => void, confirm: (url: string) => Promise<unknown> = async () => undefined) {
  server = createReceiver(onAlert, { confirm }) as Server;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

/** The body SNS posts to an HTTPS subscription with raw message delivery: the protocol's key, else `default`. */
function rawBody(alert: Alert): string {
  const { message } = buildSnsMessage({ alert, rendering: render(alert), sms: 'held' });
  const bodies = JSON.parse(message) as Record<string, string>;
  return bodies.https ?? bodies.default!;
}

const post = (url: string, type: string, body: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'x-amz-sns-message-type': type, 'content-type': 'text/plain; charset=UTF-8' },
    body,
    signal: AbortSignal.timeout(5_000),
  });

describe('a webhook receiver', () => {
  it('gets the alert JSON as the body, with its rule and severity, exactly as the alert', async () => {
    const alert: TokenTransferAlert = { ...tokenTransferKind.sample, rule: 'Treasury inflow', severity: 'critical' };
    const received: unknown[] = [];
    const url = await listen((a) => received.push(a));
    const response = await post(url, 'Notification', rawBody(alert));
    expect(response.status).toBe(200);
    expect(received).toEqual([alert]);
  });

  it('confirms its subscription by visiting the SubscribeURL of SNS, and no other URL', async () => {
    const visited: string[] = [];
    const url = await listen(() => {}, async (u) => visited.push(u));
    const subscribeUrl = 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:alerts&Token=abc';
    expect((await post(url, 'SubscriptionConfirmation', JSON.stringify({ Type: 'SubscriptionConfirmation', SubscribeURL: subscribeUrl }))).status).toBe(200);
    expect((await post(url, 'SubscriptionConfirmation', JSON.stringify({ SubscribeURL: 'https://evil.example.com/' }))).status).toBe(500);
    expect(visited).toEqual([subscribeUrl]);
  });
});
