// What a webhook receives: SNS delivers the `default` body of the message the publisher builds (it has no
// `https` key): the alert JSON, raw or as the signed envelope's Message. The example receiver of
// docs/webhooks.md gets it both ways here from a local HTTP server, with the headers SNS sends (its checks of
// signatures, topics and bodies: test/examples/webhook-receiver.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildSnsMessage } from '../../../lambda/adapters/sns/sns-message';
import type { Alert, TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { render } from '../../../lambda/core/render';
// @ts-expect-error: the example is plain JavaScript, copied as it is by readers
import { createReceiver } from '../../../docs/examples/webhook-receiver.mjs';
import { snsSigner, TOPIC_ARN } from '../../support/sns-signer';

const SECRET = 'b7e1c9d04f2a';
const sns = snsSigner(Date.now());

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(onAlert: (alert: unknown) => void, confirm: (url: string) => Promise<unknown> = async () => undefined) {
  server = createReceiver(onAlert, {
    topicArn: TOPIC_ARN,
    pathSecret: SECRET,
    confirm,
    fetchCertificate: async () => sns.certificate,
    log: () => {},
  }) as Server;
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
  it('gets the alert JSON as the raw body, with its rule and severity, exactly as the alert', async () => {
    const alert: TokenTransferAlert = { ...tokenTransferKind.sample, rule: 'Treasury inflow', severity: 'critical' };
    const received: unknown[] = [];
    const url = await listen((a) => received.push(a));
    const response = await post(`${url}${SECRET}`, 'Notification', rawBody(alert));
    expect(response.status).toBe(200);
    expect(received).toEqual([alert]);
  });

  it("gets the same alert from the signed envelope's Message", async () => {
    const alert: TokenTransferAlert = { ...tokenTransferKind.sample, rule: 'Treasury inflow', severity: 'critical' };
    const received: unknown[] = [];
    const url = await listen((a) => received.push(a));
    const response = await post(url, 'Notification', JSON.stringify(sns.notification(rawBody(alert))));
    expect(response.status).toBe(200);
    expect(received).toEqual([alert]);
  });

  it('confirms its subscription by visiting the SubscribeURL of SNS, and no other URL', async () => {
    const visited: string[] = [];
    const url = await listen(
      () => {},
      async (u) => visited.push(u),
    );
    const confirmation = sns.confirmation();
    expect((await post(url, 'SubscriptionConfirmation', JSON.stringify(confirmation))).status).toBe(200);
    expect((await post(url, 'SubscriptionConfirmation', JSON.stringify(sns.confirmation({ SubscribeURL: 'https://evil.example.com/' })))).status).toBe(403);
    expect(visited).toEqual([confirmation.SubscribeURL]);
  });
});
