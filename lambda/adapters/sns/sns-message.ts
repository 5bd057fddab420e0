// One alert as one SNS message: the alert JSON for machines (`default`: SQS, Lambda, HTTP subscribers),
// the renderings for people (`email`, `sms`), and message attributes that subscription filter policies
// can match on (type, network, rule, severity, and what each alert kind adds: the contract or address it is
// about), plus `sms`, which tells SMS subscriptions whether to text it (sms-budget.ts).
import type { MessageAttributeValue } from '@aws-sdk/client-sns';
import type { Alert } from '../../core/alert-kinds/alert';
import type { OutgoingAlert } from '../../core/deliver/outgoing-alert';
import { filterAttributes } from '../../core/alert-kinds/registry';
import { boundedAlert } from '../../core/render/alert-json';
import { sha256Hex } from '../sha256';
import { cleanSubject } from './subject';
import type { SmsRoute } from '../../core/deliver/outgoing-alert';

/** SNS's limit for one message and for a whole batch: message, subject and attributes together. */
export const SNS_MAX_PAYLOAD_BYTES = 262_144;

const EMAIL_TRUNCATION_NOTE = '\n\n[Shortened to fit the 256 KiB SNS limit; the alert JSON carries the details.]';
/** SNS wants a body for every protocol key, so an email cut to nothing still says why. */
const EMAIL_OMITTED = '[Too large for the 256 KiB SNS limit; the alert JSON carries the details.]';
const FIELD_TRUNCATION_NOTE = '...[truncated]';
const MAX_FIT_ROUNDS = 5;
/** The alert JSON is cut to this before the email is touched: its fields stay long enough to read and match on. */
const ALERT_JSON_FLOOR_BYTES = 16 * 1024;

export interface SnsMessage {
  /** MessageStructure "json": one body per protocol. */
  message: string;
  subject: string;
  attributes: Record<string, MessageAttributeValue>;
  /** What counts toward the SNS size limit. */
  bytes: number;
  /** What had to be changed to make SNS accept it, for a warning. */
  adjustments: string[];
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * An attribute longer than this is cut: only a rule's default name gets so long (it lists the rule's
 * addresses, 100,000 of them in a config), and a filter policy matches names people write.
 */
const ATTRIBUTE_MAX_BYTES = 16 * 1024;

function attributesOf(alert: Alert, sms: SmsRoute): Record<string, MessageAttributeValue> {
  return Object.fromEntries(
    Object.entries({ ...filterAttributes(alert), sms }).map(([name, value]) => [
      name,
      { DataType: 'String', StringValue: utf8Bytes(value) > ATTRIBUTE_MAX_BYTES ? cutToBytes(value, ATTRIBUTE_MAX_BYTES - 3) + '...' : value },
    ]),
  );
}

function attributeBytes(attributes: Record<string, MessageAttributeValue>): number {
  let total = 0;
  for (const [name, value] of Object.entries(attributes)) {
    total += utf8Bytes(name) + utf8Bytes(value.DataType ?? '') + utf8Bytes(value.StringValue ?? '');
  }
  return total;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, cut between characters. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // A continuation byte (10xxxxxx) at the cut means the cut is inside a character: back off to its start.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Every string in a JSON value (at any depth) longer than `cap` bytes, cut to it and marked. */
function capTexts(value: unknown, cap: number): unknown {
  if (typeof value === 'string') return utf8Bytes(value) > cap ? cutToBytes(value, cap) + FIELD_TRUNCATION_NOTE : value;
  if (Array.isArray(value)) return value.map((item) => capTexts(item, cap));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capTexts(v, cap)]));
  return value;
}

function longestText(value: unknown): number {
  if (typeof value === 'string') return utf8Bytes(value);
  if (Array.isArray(value)) return value.reduce((most: number, item) => Math.max(most, longestText(item)), 0);
  if (value !== null && typeof value === 'object') return longestText(Object.values(value));
  return 0;
}

/**
 * The alert with its long texts, at any depth (a call's arguments are a list), cut to one common length, the
 * longest that lets its JSON fit in `maxBytes`: every text from the chain is bounded already (chain-fields.ts),
 * so this is the guard for what those bounds still leave too big together; each text stays readable from its
 * start, and a shortened alert beats one that SNS refuses forever. The `key` is never cut.
 */
function shrinkAlertJson(alert: Alert, maxBytes: number): string {
  const members = Object.entries(alert);
  const withCap = (cap: number) =>
    JSON.stringify({ ...Object.fromEntries(members.map(([name, value]) => [name, name === 'key' ? value : capTexts(value, cap)])), truncated: true });
  // Binary search for the largest cap that fits; about 20 rounds for a megabyte.
  let low = 0;
  let high = longestText(members.filter(([name]) => name !== 'key').map(([, value]) => value));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (utf8Bytes(withCap(mid)) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  return withCap(low);
}

export function buildSnsMessage(outgoing: OutgoingAlert): SnsMessage {
  const { rendering } = outgoing;
  const adjustments: string[] = [];
  // A big printed value is bounded first, by the same rule for every channel; the cuts below are the guard
  // for whatever else might still not fit.
  const alert = boundedAlert(outgoing.alert, sha256Hex);
  if (alert !== outgoing.alert) adjustments.push('chain texts cut to their bounds');

  const subject = cleanSubject(rendering.subject, `stacks-watch ${alert.type} on ${alert.network}`);
  if (subject !== rendering.subject) adjustments.push('subject cleaned to printable ASCII under 100 characters');

  const attributes = attributesOf(alert, outgoing.sms ?? 'text');
  const fixedBytes = utf8Bytes(subject) + attributeBytes(attributes);
  let alertJson = JSON.stringify(alert);
  let email = rendering.email;
  const compose = () => JSON.stringify({ default: alertJson, email, sms: rendering.sms });
  const overLimit = () => fixedBytes + utf8Bytes(compose()) - SNS_MAX_PAYLOAD_BYTES;

  // The untrusted fields of the alert JSON go first (a huge print's repr and hex: the only way an alert
  // gets this big, and the email shows them capped anyway), down to a floor that keeps them useful; the
  // person's email is cut only if that is not enough, and the alert JSON below the floor only after that.
  // Each cut removes at least as many escaped bytes as raw ones, so one or two rounds suffice; the bound
  // only guards against a loop that a miscount would make endless.
  let alertBudget = utf8Bytes(alertJson);
  const shrinkAlert = (floor: number) => {
    for (let round = 0, over = overLimit(); over > 0 && round < MAX_FIT_ROUNDS; round++, over = overLimit()) {
      const budget = Math.max(floor, alertBudget - over);
      if (budget >= alertBudget) return;
      if (!adjustments.includes('alert fields truncated')) adjustments.push('alert fields truncated');
      alertBudget = budget;
      alertJson = shrinkAlertJson(alert, alertBudget);
    }
  };
  shrinkAlert(Math.min(alertBudget, ALERT_JSON_FLOOR_BYTES));
  for (let round = 0, over = overLimit(); over > 0 && email !== EMAIL_OMITTED && round < MAX_FIT_ROUNDS; round++, over = overLimit()) {
    if (round === 0) adjustments.push('email body trimmed');
    const keep = utf8Bytes(email) - over - 2 * utf8Bytes(EMAIL_TRUNCATION_NOTE);
    email = keep > 0 ? cutToBytes(email, keep) + EMAIL_TRUNCATION_NOTE : EMAIL_OMITTED;
  }
  shrinkAlert(0);

  const message = compose();
  return { message, subject, attributes, bytes: fixedBytes + utf8Bytes(message), adjustments };
}
