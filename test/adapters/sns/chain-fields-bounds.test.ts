// Every field an alert takes from the chain (call arguments, result reprs, memos, names, asset ids…) is
// bounded, for every kind in the registry: each kind's sample with every such text grown to 300 KB is
// published to SNS (aws-sdk-client-mock answering as SNS does at its 256 KiB limit), never parked.
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { PublishBatchCommand, SNSClient } from '@aws-sdk/client-sns';
import { payloadBytes, snsWithItsLimit } from '../../support/sns-limit';
import { createSnsPublisher } from '../../../lambda/adapters/sns';
import { SNS_MAX_PAYLOAD_BYTES } from '../../../lambda/adapters/sns/sns-message';
import { ALERT_TYPES, alertKinds } from '../../../lambda/core/alert-kinds/registry';
import type { Alert } from '../../../lambda/core/alert-kinds/alert';
import { boundedAlert, FIELD_MAX_CHARS } from '../../../lambda/core/render/alert-json';
import { render } from '../../../lambda/core/render';
import { sha256Hex } from '../../../lambda/adapters/sha256';

const client = new SNSClient({ region: 'us-east-1' });
const sns = mockClient(client);
const BIG = 300 * 1024;

/** Members the watcher writes itself (from its config or its own words), not from the chain. */
const OWN = new Set(['type', 'key', 'retracts', 'retracted_type', 'network', 'rule', 'severity']);

/** Every text at any depth grown to 300 KB by repeating itself (numbers spelled as text stay as they are). */
function grown(value: unknown): unknown {
  if (typeof value === 'string') return /^\d*$/.test(value) ? value : value.repeat(Math.ceil(BIG / value.length));
  if (Array.isArray(value)) return value.map(grown);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, grown(v)]));
  return value;
}

function oversized(alert: Alert): Alert {
  return Object.fromEntries(Object.entries(alert).map(([k, v]) => [k, OWN.has(k) ? v : grown(v)])) as Alert;
}

/** Surrogate pairs: each is one character made of two UTF-16 units. */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * The longest text anywhere in a JSON value, in characters (code points, as `Array.from` counts them: its
 * UTF-16 length less one per surrogate pair, without spreading 300 KB into an array of 300,000 strings).
 */
function longestText(value: unknown): number {
  if (typeof value === 'string') return value.length - (value.match(SURROGATE_PAIR)?.length ?? 0);
  if (Array.isArray(value)) return Math.max(0, ...value.map(longestText));
  if (value !== null && typeof value === 'object')
    return Math.max(
      0,
      ...Object.entries(value)
        .filter(([k]) => !OWN.has(k))
        .map(([, v]) => longestText(v)),
    );
  return 0;
}

beforeEach(() => {
  sns.reset();
  sns.on(PublishBatchCommand).callsFake(snsWithItsLimit);
});

describe.each(ALERT_TYPES)('a %s alert whose chain fields are 300 KB each', (type) => {
  const alert = oversized(alertKinds[type].sample as Alert);

  it('is published under the SNS limit, not parked, under its own key', async () => {
    const publisher = createSnsPublisher({ client, topicArn: 'arn:aws:sns:us-east-1:123456789012:alerts', sleep: async () => {} });
    const accepted: string[] = [];
    const outcome = await publisher.publish([{ alert, rendering: render(alert) }], async (keys) => void accepted.push(...keys));

    expect(outcome).toEqual({ failed: [], undeliverable: [] });
    expect(accepted).toEqual([alert.key]);
    const [entry] = sns.commandCalls(PublishBatchCommand)[0]!.args[0].input.PublishBatchRequestEntries ?? [];
    expect(payloadBytes(entry!)).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    const sent = JSON.parse((JSON.parse(entry!.Message!) as { default: string }).default) as Alert;
    expect(sent).toMatchObject({ type, key: alert.key });
  });

  it('keeps every chain text within its documented bound in the alert JSON, saying it was cut', () => {
    const bounded = boundedAlert(alert, sha256Hex) as unknown as Record<string, unknown>;
    // The printed value's members have their own bounds (value_repr, value_hex, value); every other text has one.
    const others = Object.fromEntries(Object.entries(bounded).filter(([k]) => !['value_repr', 'value_hex', 'value'].includes(k)));
    expect(longestText(others)).toBeLessThanOrEqual(FIELD_MAX_CHARS + 64);
    if (longestText(alert) > FIELD_MAX_CHARS) expect(JSON.stringify(bounded)).toMatch(/…\[cut: [\d,]+ characters in all\]/);
  });
});
