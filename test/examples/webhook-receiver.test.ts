// The example webhook receiver (docs/examples/webhook-receiver.mjs) on a real local HTTP server, fed by a
// stand-in for SNS that signs with a locally made key and certificate: it takes what SNS signed for its
// topic and refuses a forged alert, another topic, an old or unsigned message, a certificate from anywhere
// but SNS over HTTPS, and a huge body; it confirms only its own topic's subscription, shows control
// characters visibly, and takes raw alerts only on its secret path.
import { afterEach, describe, expect, it } from 'vitest';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error: the example is plain JavaScript, copied as it is by readers
import { createReceiver, visible } from '../../docs/examples/webhook-receiver.mjs';
import { CERT_URL, snsSigner, TOPIC_ARN, type Envelope } from '../support/sns-signer';

const NOW = Date.parse('2026-11-24T08:00:00Z');
const sns = snsSigner(NOW);
const ALERT = { type: 'token_transfer', key: 'token_transfer:0xabc', network: 'mainnet', amount: '2500000000', rule: 'Treasury inflow', severity: 'critical' };

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

interface Receiver {
  url: string;
  alerts: unknown[];
  confirmed: string[];
  certificatesAsked: string[];
  logged: string[];
}

async function receiver(options: { pathSecret?: string; maxBodyBytes?: number; certificate?: string } = {}): Promise<Receiver> {
  const r: Receiver = { url: '', alerts: [], confirmed: [], certificatesAsked: [], logged: [] };
  server = createReceiver((alert: unknown) => void r.alerts.push(alert), {
    topicArn: TOPIC_ARN,
    now: () => NOW,
    confirm: async (url: string) => void r.confirmed.push(url),
    fetchCertificate: async (url: string) => (r.certificatesAsked.push(url), options.certificate ?? sns.certificate),
    log: (line: string) => void r.logged.push(line),
    ...options,
  }) as Server;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
  return r;
}

const post = (url: string, body: string, type = 'Notification') =>
  fetch(url, {
    method: 'POST',
    headers: { 'x-amz-sns-message-type': type, 'content-type': 'text/plain; charset=UTF-8' },
    body,
    signal: AbortSignal.timeout(5_000),
  }).then((response) => response.status);

const postEnvelope = (r: Receiver, envelope: Envelope, type = envelope.Type) => post(r.url, JSON.stringify(envelope), type);

describe('a message SNS signed for the topic', () => {
  it('hands over the alert, fetching the signing certificate once, from the URL SNS named', async () => {
    const r = await receiver();
    expect(await postEnvelope(r, sns.notification(JSON.stringify(ALERT)))).toBe(200);
    expect(await postEnvelope(r, sns.notification(JSON.stringify({ ...ALERT, key: 'token_transfer:0xdef' }), { Subject: 'Treasury inflow' }))).toBe(200);
    expect(r.alerts).toEqual([ALERT, { ...ALERT, key: 'token_transfer:0xdef' }]);
    expect(r.certificatesAsked).toEqual([CERT_URL]);
  });

  it('confirms the subscription of its own topic, and of no other', async () => {
    const r = await receiver();
    const own = sns.confirmation();
    expect(await postEnvelope(r, own)).toBe(200);
    expect(await postEnvelope(r, sns.confirmation({ TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else' }))).toBe(403);
    expect(r.confirmed).toEqual([own.SubscribeURL]);
  });
});

describe('a forged or misdirected message', () => {
  it('is refused when the alert was changed after SNS signed it', async () => {
    const r = await receiver();
    const signed = sns.notification(JSON.stringify(ALERT));
    const forged = { ...signed, Message: JSON.stringify({ ...ALERT, amount: '1' }) };
    expect(await postEnvelope(r, forged)).toBe(403);
    expect(r.alerts).toEqual([]);
    expect(r.logged.join('\n')).toMatch(/the signature does not match/);
  });

  it("is refused when signed by another key, though its certificate URL is SNS's", async () => {
    const r = await receiver();
    const impostor = snsSigner(NOW);
    expect(await postEnvelope(r, impostor.notification(JSON.stringify(ALERT)))).toBe(403);
    expect(r.alerts).toEqual([]);
  });

  it('takes no certificate from a host that is not SNS, or over plain HTTP, and never fetches it', async () => {
    const r = await receiver();
    for (const url of [
      'https://evil.example.com/SimpleNotificationService-1.pem',
      'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example.com/SimpleNotificationService-1.pem',
      'https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-1.pem',
    ]) {
      expect(await postEnvelope(r, { ...sns.notification(JSON.stringify(ALERT)), SigningCertURL: url })).toBe(403);
    }
    expect(r.certificatesAsked).toEqual([]);
    expect(r.alerts).toEqual([]);
  });

  it('is refused from another topic, signed with version 1 (SHA1), or signed more than an hour ago', async () => {
    const r = await receiver();
    const message = JSON.stringify(ALERT);
    expect(await postEnvelope(r, sns.notification(message, { TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else' }))).toBe(403);
    expect(await postEnvelope(r, { ...sns.notification(message), SignatureVersion: '1' })).toBe(403);
    expect(await postEnvelope(r, sns.notification(message, { Timestamp: new Date(NOW - 2 * 60 * 60 * 1000).toISOString() }))).toBe(403);
    expect(r.alerts).toEqual([]);
  });

  it('is refused when it is the raw alert, unsigned, posted anywhere but the secret path', async () => {
    const r = await receiver({ pathSecret: 's3cr3t-9f2c7a' });
    expect(await post(r.url, JSON.stringify(ALERT))).toBe(403);
    expect(await post(`${r.url}wrong-secret-1`, JSON.stringify(ALERT))).toBe(403);
    expect(r.alerts).toEqual([]);
  });
});

describe('raw delivery to a secret path', () => {
  it('takes the alert JSON posted to the path, and a signed confirmation anywhere', async () => {
    const r = await receiver({ pathSecret: 's3cr3t-9f2c7a' });
    expect(await post(`${r.url}s3cr3t-9f2c7a`, JSON.stringify(ALERT))).toBe(200);
    expect(await postEnvelope(r, sns.confirmation())).toBe(200);
    expect(r.alerts).toEqual([ALERT]);
    expect(r.confirmed).toHaveLength(1);
  });
});

describe('a hostile body', () => {
  it('over the bound is refused without being read whole, said length or not', async () => {
    const r = await receiver({ maxBodyBytes: 64 * 1024 });
    expect(await post(r.url, 'x'.repeat(65 * 1024))).toBe(413);
    // Streamed in chunks without a length: refused once the bound is passed, before the rest arrives.
    const status = await new Promise<number | string>((resolve) => {
      const req = request(r.url, { method: 'POST', headers: { 'x-amz-sns-message-type': 'Notification' } }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', (error) => resolve(error.message));
      const chunk = Buffer.alloc(16 * 1024, 'x');
      let sent = 0;
      const more = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', more);
        }
        req.end();
      };
      more();
    });
    expect([413, 'socket hang up', 'write EPIPE', 'read ECONNRESET']).toContain(status);
    expect(r.alerts).toEqual([]);
  });

  it('shows control characters in what it logs visibly, never as escape codes', async () => {
    const r = await receiver();
    expect(await postEnvelope(r, sns.notification(JSON.stringify(ALERT), { TopicArn: 'arn:aws:sns:evil\u001b[2J\u0007' }))).toBe(403);
    expect(r.logged.join('\n')).toContain('arn:aws:sns:evil\\u001b[2J\\u0007');
    expect(r.logged.join('\n')).not.toMatch(/[\u0000-\u0008\u001b]/);
    expect(visible('bell\u0007 bidi\u202e end')).toBe('bell\\u0007 bidi\\u202e end');
  });
});
