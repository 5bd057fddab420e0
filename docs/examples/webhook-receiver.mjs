// A stacks-watch webhook receiver that only believes SNS: Node 18 or newer, no dependencies. Anyone who knows a
// webhook's URL can post to it, so this receiver takes an alert only when SNS signed it for your topic
// (docs/webhooks-security.md says why and how). Subscribe with the signed envelope, `"envelope": true` in
// alertSubscriptions, on a topic that signs with SignatureVersion 2, and run it behind HTTPS:
//
//   TOPIC_ARN=arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts PORT=8080 node docs/examples/webhook-receiver.mjs
//
// With raw delivery (the default: the body is the alert JSON, unsigned), set PATH_SECRET to a long random
// string and subscribe `https://…/<PATH_SECRET>`: the receiver then takes unsigned alerts on that path only.
import { createVerify, timingSafeEqual, X509Certificate } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** SNS's own hosts, the only ones a signing certificate or a subscription URL may come from. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
/** An alert message is at most 256 KiB; its signed envelope adds escapes and a few fields. */
const MAX_BODY_BYTES = 640 * 1024;
/** SNS retries a delivery for an hour at most: an older signed message is a replay. */
const MAX_AGE_MS = 60 * 60 * 1000;
/** The fields SNS signs, in the order it signs them (Subject only when present). */
const SIGNED_FIELDS = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Text from outside shown with its control characters visible (`\u001b[2J` stays text, not a cleared screen). */
export function visible(text) {
  return String(text).replace(
    /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** An https URL on an SNS host, or null. */
function snsUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'https:' && SNS_HOST.test(url.hostname) && url.port === '' && url.username === '' ? url : null;
}

/** The signing certificate from SNS over HTTPS, at most 16 KB, no redirect followed. */
export async function fetchSnsCertificate(url) {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`the certificate URL answered ${response.status}`);
  const text = await response.text();
  if (text.length > 16 * 1024) throw new Error('the certificate is too large');
  return text;
}

async function readBody(request, maxBytes) {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw new Refused(413, `the body is over ${maxBytes} bytes`);
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > maxBytes) throw new Refused(413, `the body is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Throws unless `envelope` is a fresh message SNS signed (SignatureVersion 2) for `topicArn`. */
async function verifyEnvelope(envelope, { topicArn, certificateOf, now }) {
  const fields = SIGNED_FIELDS[envelope.Type];
  if (!fields) throw new Refused(400, `not an SNS message type: ${visible(envelope.Type)}`);
  if (envelope.TopicArn !== topicArn) throw new Refused(403, `not from this receiver's topic: ${visible(envelope.TopicArn)}`);
  if (envelope.SignatureVersion !== '2')
    throw new Refused(403, 'not signed with SignatureVersion 2 (SHA256withRSA): set the topic attribute SignatureVersion to 2');
  const certUrl = snsUrl(envelope.SigningCertURL);
  if (!certUrl || !certUrl.pathname.endsWith('.pem')) throw new Refused(403, `not an SNS certificate URL: ${visible(envelope.SigningCertURL)}`);
  const age = now() - Date.parse(envelope.Timestamp);
  if (!(age <= MAX_AGE_MS)) throw new Refused(403, `signed too long ago to be a delivery: ${visible(envelope.Timestamp)}`);
  const certificate = new X509Certificate(await certificateOf(certUrl.href));
  if (Date.parse(certificate.validTo) < now() || Date.parse(certificate.validFrom) > now()) throw new Refused(403, 'the signing certificate is not valid now');
  const signed = fields
    .filter((name) => name !== 'Subject' || envelope.Subject !== undefined)
    .map((name) => `${name}\n${envelope[name]}\n`)
    .join('');
  if (!createVerify('RSA-SHA256').update(signed, 'utf8').verify(certificate.publicKey, String(envelope.Signature), 'base64')) {
    throw new Refused(403, 'the signature does not match');
  }
}

function samePath(requestUrl, secret) {
  const given = Buffer.from(new URL(requestUrl ?? '/', 'http://receiver').pathname.slice(1));
  const wanted = Buffer.from(secret);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The receiver. `onAlert(alert)` gets each alert's JSON object, only from a message SNS signed for `topicArn`
 * (or, with `pathSecret`, posted raw to that secret path). Its `key` is unique per alert: SNS may deliver a
 * message more than once, so drop keys already seen. The rest is injectable for tests.
 */
export function createReceiver(onAlert, options) {
  const { topicArn, pathSecret, confirm = (url) => fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) }) } = options;
  const { fetchCertificate = fetchSnsCertificate, maxBodyBytes = MAX_BODY_BYTES, now = Date.now, log = console.error } = options;
  if (!/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]+$/.test(topicArn ?? '')) throw new Error("topicArn: the ARN of the stack's alerts topic is required");
  const certificates = new Map();
  const certificateOf = (url) => {
    if (!certificates.has(url))
      certificates.set(
        url,
        fetchCertificate(url).catch((error) => (certificates.delete(url), Promise.reject(error))),
      );
    return certificates.get(url);
  };
  return createServer(async (request, response) => {
    try {
      const body = await readBody(request, maxBodyBytes);
      if (pathSecret && samePath(request.url, pathSecret) && request.headers['x-amz-sns-message-type'] === 'Notification') {
        await onAlert(JSON.parse(body));
        return response.writeHead(200).end();
      }
      let envelope;
      try {
        envelope = JSON.parse(body);
      } catch {
        throw new Refused(400, 'the body is not JSON');
      }
      if (typeof envelope !== 'object' || envelope === null || typeof envelope.Signature !== 'string') {
        throw new Refused(403, 'an unsigned body: subscribe with the signed envelope, or post raw alerts to the secret path');
      }
      await verifyEnvelope(envelope, { topicArn, certificateOf, now });
      if (envelope.Type === 'SubscriptionConfirmation') {
        // Visiting SubscribeURL confirms the subscription: only on SNS, only for this topic (checked above).
        const url = snsUrl(envelope.SubscribeURL);
        if (!url) throw new Refused(403, `not an SNS URL: ${visible(envelope.SubscribeURL)}`);
        await confirm(url.href);
      } else if (envelope.Type === 'Notification') {
        await onAlert(JSON.parse(envelope.Message));
      }
      response.writeHead(200).end();
    } catch (error) {
      log(`webhook refused: ${visible(error instanceof Error ? error.message : error)}`);
      // A refusal is final (4xx: SNS does not retry it); anything else is ours, and SNS retries it (5xx).
      response.writeHead(error instanceof Refused ? error.status : 500, { connection: 'close' }).end();
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seen = new Set();
  createReceiver(
    (alert) => {
      if (seen.has(alert.key)) return;
      seen.add(alert.key);
      console.log(visible(`${alert.severity ?? 'warning'} ${alert.rule ?? ''}: ${alert.type} ${alert.key}`));
    },
    { topicArn: process.env.TOPIC_ARN, pathSecret: process.env.PATH_SECRET || undefined },
  ).listen(Number(process.env.PORT ?? 8080));
}
