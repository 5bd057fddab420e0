// Hostile text written on chain (control characters, terminal escapes, right-to-left overrides, zero-width
// characters, HTML, emoji, a 100 KB value) carried end to end: read by the real client from the fake API,
// matched by the cycle, rendered, and built into the SNS messages that reach email and SMS subscribers, and
// printed by the local runner. What a person reads is stripped and capped; the SMS is one GSM-7 message.
import { Writable } from 'node:stream';
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCycle } from '../../lambda/core/cycle';
import { silentTelemetry } from '../../lambda/core/ports';
import { RecordingOperator } from '../core/harness';
import type { OutgoingAlert } from '../../lambda/core/deliver/outgoing-alert';
import { isGsm7, smsLength } from '../../lambda/core/render';
import { createSnsPublisher } from '../../lambda/adapters/sns';
import { SNS_MAX_PAYLOAD_BYTES } from '../../lambda/adapters/sns/sns-message';
import { createStdoutPublisher } from '../../lambda/adapters/stdout/stdout-publisher';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { createHiroClient } from '../../lambda/hiro';
import { clarityValue, contractCall, createFakeHiro, transfer, type FakeEvent, type RunningFakeHiro } from '../support/fake-hiro';
import { alice, vault, watchConfig } from './watched-chain';

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const HOSTILE =
  'gm\u0000\u0007\u001b[31mred\u001b[0m \u202Eevil\u202C \u200F\u200Bhidden\u2066 <script>alert(1)</script> <b>bold</b> 🚀🔥 “quoted”\r\nSubject: forged';
/** Anything that can hide, reorder or inject text, or drive a terminal. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const INVISIBLE_BUT_LINE_BREAKS = /[^\P{Cc}\n]|\p{Cf}/u;

/** A log whose repr is exactly `repr`, as a node could report it: the API passes reprs through. */
function rawLog(repr: string, topic = 'print'): FakeEvent {
  return { event_type: 'smart_contract_log', contract_log: { contract_id: vault, topic, value: { hex: clarityValue('x').hex, repr } } };
}

describe('hostile on-chain text, end to end to SNS and stdout', () => {
  const fake = createFakeHiro();
  const sns = mockClient(SNSClient);
  const entries: PublishBatchRequestEntry[] = [];
  const printed: OutgoingAlert[] = [];
  let server: RunningFakeHiro;

  beforeAll(async () => {
    fake.chain.mine([
      transfer({ to: alice, amount: 5, memo: '\u202Eevil<b>🚀\u0007' }),
      contractCall({ contractId: vault, events: [rawLog(HOSTILE), rawLog(`${'A'.repeat(100_000)}${HOSTILE}`), rawLog('ok', `print\u0000<i>${HOSTILE}`)] }),
    ]);
    server = await fake.start();
    sns.on(PublishBatchCommand).callsFake((input: { PublishBatchRequestEntries: PublishBatchRequestEntry[] }) => {
      entries.push(...input.PublishBatchRequestEntries);
      return { Successful: input.PublishBatchRequestEntries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` })), Failed: [] };
    });
    const snsPublisher = createSnsPublisher({ client: new SNSClient({ region: 'us-east-1' }), topicArn: TOPIC_ARN, sleep: async () => {} });
    const publisher = {
      async publish(alerts: readonly OutgoingAlert[]) {
        printed.push(...alerts);
        return snsPublisher.publish(alerts);
      },
    };
    const summary = await runCycle(
      {
        chain: createHiroClient({ baseUrl: server.url, requestsPerMinute: 1_000_000 }),
        state: new DocumentStateStore(emptyDocument('mainnet')),
        publisher,
        clock: { now: Date.now },
        telemetry: silentTelemetry,
        operator: new RecordingOperator(),
      },
      watchConfig(),
      { runId: 'hostile', deadlineMs: Date.now() + 30_000, leaseTtlMs: 60_000, alertStaleAfterMs: 60_000 },
    );
    expect(summary.alertsPublished).toBe(4);
  });
  afterAll(async () => {
    sns.restore();
    await server?.close();
  });

  const messages = () => entries.map((e) => ({ entry: e, body: JSON.parse(e.Message!) as { default: string; email: string; sms: string } }));

  it('publishes every alert, each message within the 256 KiB SNS limit', () => {
    expect(entries).toHaveLength(4);
    for (const { entry } of messages()) {
      const attributes = Object.entries(entry.MessageAttributes ?? {}).map(([name, v]) => name + v.DataType + (v.StringValue ?? ''));
      const bytes = [entry.Message!, entry.Subject!, ...attributes].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
      expect(bytes).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    }
  });

  it('gives every email a one-line printable ASCII subject under 100 characters', () => {
    for (const { entry } of messages()) expect(entry.Subject).toMatch(/^[\x20-\x7E]{1,99}$/);
  });

  it('strips control, bidi and zero-width characters from the email, keeping only its own line breaks', () => {
    for (const { body } of messages()) {
      expect(body.email).not.toMatch(INVISIBLE_BUT_LINE_BREAKS);
      expect(body.email).not.toContain('\r');
    }
  });

  it('keeps on-chain text on one line, so it cannot forge a line of the email', () => {
    for (const { body } of messages()) expect(body.email.split('\n').some((line) => line.startsWith('Subject: forged'))).toBe(false);
  });

  it('caps a 100 KB value in the email', () => {
    for (const { body } of messages()) expect(body.email.length).toBeLessThan(5_000);
  });

  it('leaves HTML as inert text in the plain-text email, and emoji as they are', () => {
    const log = messages().find(({ body }) => body.email.includes('<script>'))!;
    expect(log.body.email).toContain('<script>alert(1)</script>');
    expect(log.body.email).toContain('🚀');
  });

  it('makes every SMS one message of at most 160 GSM-7 characters, with no control characters', () => {
    for (const { body } of messages()) {
      expect(isGsm7(body.sms), body.sms).toBe(true);
      expect(smsLength(body.sms).units).toBeLessThanOrEqual(160);
      expect(body.sms).not.toMatch(INVISIBLE);
    }
  });

  it('keeps the exact on-chain value in the alert JSON for programs, as valid JSON', () => {
    const alerts = messages().map(({ body }) => JSON.parse(body.default) as { value_repr?: string });
    expect(alerts.map((a) => a.value_repr)).toContain(HOSTILE);
  });

  it('prints the human form on stdout without a control, bidi or zero-width character', async () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    await createStdoutPublisher(out, 'human').publish(printed);
    expect(text).toContain('<script>');
    expect(text).not.toMatch(INVISIBLE_BUT_LINE_BREAKS);
  });
});
