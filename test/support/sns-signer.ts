// SNS's side of a signed HTTPS delivery, made locally with node:crypto: an RSA key, a self-signed X.509
// certificate for it (written in DER by hand: node:crypto reads certificates but does not make them), and
// envelopes signed as SNS signs them (SignatureVersion 2: SHA256withRSA over the signed fields).
import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A DER length: short form below 128, else the count of length bytes, then the bytes. */
function lengthOf(size: number): number[] {
  if (size < 0x80) return [size];
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag, ...lengthOf(body.length)]), body]);
}
const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const utcTime = (at: Date) => der(0x17, Buffer.from(`${at.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));
/** sha256WithRSAEncryption (1.2.840.113549.1.1.11), no parameters. */
const SHA256_WITH_RSA = sequence(oid('2a864886f70d01010b'), Buffer.from([0x05, 0x00]));
/** A Name with one common name (2.5.4.3). */
const commonName = (cn: string) => sequence(der(0x31, sequence(oid('550403'), der(0x0c, Buffer.from(cn)))));

/** A self-signed certificate for `key`, valid from a day before `now` to a day after, as PEM. */
export function selfSignedCertificate(publicKey: KeyObject, privateKey: KeyObject, now: number, cn = 'sns.amazonaws.com'): string {
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.from([1])),
    SHA256_WITH_RSA,
    commonName(cn),
    sequence(utcTime(new Date(now - DAY_MS)), utcTime(new Date(now + DAY_MS))),
    commonName(cn),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('RSA-SHA256').update(tbs).sign(privateKey);
  const certificate = sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

export const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
export const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem';

const SIGNED = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
} as const;

export type Envelope = Record<string, string | undefined>;

/** SNS for one topic: its certificate, and envelopes it signs. */
export function snsSigner(now: number) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = selfSignedCertificate(publicKey, privateKey, now);
  const sign = (envelope: Envelope): Envelope => {
    const fields = SIGNED[envelope.Type as keyof typeof SIGNED];
    const text = fields
      .filter((name) => envelope[name] !== undefined)
      .map((name) => `${name}\n${envelope[name]}\n`)
      .join('');
    return { ...envelope, SignatureVersion: '2', SigningCertURL: CERT_URL, Signature: createSign('RSA-SHA256').update(text).sign(privateKey, 'base64') };
  };
  const base = (type: string) => ({ Type: type, MessageId: randomUUID(), TopicArn: TOPIC_ARN, Timestamp: new Date(now).toISOString() });
  return {
    certificate,
    sign,
    notification: (message: string, over: Envelope = {}) =>
      sign({ ...base('Notification'), Message: message, UnsubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe', ...over }),
    confirmation: (over: Envelope = {}) => {
      const token = 'token-0123';
      const topic = over.TopicArn ?? TOPIC_ARN;
      return sign({
        ...base('SubscriptionConfirmation'),
        Token: token,
        Message: `You have chosen to subscribe to the topic ${topic}.`,
        SubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${topic}&Token=${token}`,
        ...over,
      });
    },
  };
}
