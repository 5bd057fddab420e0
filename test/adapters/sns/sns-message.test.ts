// One alert as an SNS message: structure, filterable attributes, and the guards that keep SNS from
// refusing it (subject rules, the 256 KiB limit).
import { describe, expect, it } from 'vitest';
import type { ContractLogAlert } from '../../../lambda/core/alert-kinds/alert';
import type { OutgoingAlert } from '../../../lambda/core/deliver/outgoing-alert';
import { buildSnsMessage, SNS_MAX_PAYLOAD_BYTES } from '../../../lambda/adapters/sns/sns-message';
import { render } from '../../../lambda/core/render';
import { contractLog, rendered, tokenTransfer } from './outgoing-alerts';

const KIB = 1024;
const withSubject = (subject: string): OutgoingAlert => ({
  ...rendered.tokenTransfer,
  rendering: { ...rendered.tokenTransfer.rendering, subject },
});

describe('message structure', () => {
  it('carries the alert JSON as default and the renderings for email and SMS', () => {
    const { message } = buildSnsMessage(rendered.tokenTransfer);
    expect(JSON.parse(message)).toEqual({
      default: JSON.stringify(tokenTransfer),
      email: rendered.tokenTransfer.rendering.email,
      sms: rendered.tokenTransfer.rendering.sms,
    });
  });

  it('keeps a clean subject as rendered, with no adjustment', () => {
    const built = buildSnsMessage(rendered.tokenTransfer);
    expect(built.subject).toBe('[stacks-watch] 2,500 STX received by SP3FBR...SVTE');
    expect(built.adjustments).toEqual([]);
  });

  it('counts message, subject and attributes toward the size', () => {
    const built = buildSnsMessage(rendered.contractLog);
    const attributeBytes = Object.entries(built.attributes).reduce(
      (sum, [name, value]) => sum + name.length + 'String'.length + Buffer.byteLength(value.StringValue ?? ''),
      0,
    );
    expect(built.bytes).toBe(Buffer.byteLength(built.message) + built.subject.length + attributeBytes);
  });
});

describe('message attributes', () => {
  const string = (value: string) => ({ DataType: 'String', StringValue: value });

  it('names the recipient address of a token transfer', () => {
    expect(buildSnsMessage(rendered.tokenTransfer).attributes).toEqual({
      type: string('token_transfer'),
      network: string('mainnet'),
      // Stored before rules had names: the defaults.
      rule: string('watcher:token_transfer'),
      severity: string('warning'),
      sms: string('text'),
      address: string('SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE'),
    });
  });

  it('names the contract of a contract log', () => {
    expect(buildSnsMessage(rendered.contractLog).attributes).toEqual({
      type: string('contract_log'),
      network: string('mainnet'),
      // Stored before rules had names: the defaults.
      rule: string('watcher:contract_log'),
      severity: string('warning'),
      sms: string('text'),
      contract_id: string('SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-dao'),
    });
  });

  it('names the contract of a contract status change', () => {
    expect(buildSnsMessage(rendered.contractStatus).attributes).toEqual({
      type: string('contract_status'),
      network: string('testnet'),
      // Stored before rules had names: the defaults.
      rule: string('watcher:contract_status'),
      severity: string('warning'),
      sms: string('text'),
      contract_id: string('SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v2-01'),
    });
  });

  it('gives a retraction its type, network and rule only', () => {
    expect(buildSnsMessage(rendered.retraction).attributes).toEqual({
      type: string('retraction'),
      network: string('mainnet'),
      // Stored before rules had names: the defaults.
      rule: string('watcher:retraction'),
      severity: string('warning'),
      sms: string('text'),
    });
  });

  it('leaves out an attribute whose value would be empty', () => {
    const noRecipient: OutgoingAlert = { ...rendered.tokenTransfer, alert: { ...tokenTransfer, recipient: '' } };
    expect(Object.keys(buildSnsMessage(noRecipient).attributes).sort()).toEqual(['network', 'rule', 'severity', 'sms', 'type']);
  });
});

describe('subject guard', () => {
  it('spells arrows, dashes and accents in ASCII and drops line breaks', () => {
    const built = buildSnsMessage(withSubject('Vault → liquidated — café\nline two'));
    expect(built.subject).toBe('Vault -> liquidated - cafe line two');
    expect(built.adjustments).toContain('subject cleaned to printable ASCII under 100 characters');
  });

  it('replaces characters with no ASCII spelling', () => {
    expect(buildSnsMessage(withSubject('gm 🚀 to 比特币')).subject).toBe('gm ? to ???');
  });

  it('shortens a subject of 100 characters to 99, marking the cut', () => {
    const subject = buildSnsMessage(withSubject(`Transfer ${'S'.repeat(91)}`)).subject;
    expect(subject).toBe(`Transfer ${'S'.repeat(87)}...`);
  });

  it('keeps a subject of 99 characters whole', () => {
    const subject = `Transfer ${'S'.repeat(90)}`;
    expect(buildSnsMessage(withSubject(subject)).subject).toBe(subject);
  });

  it('falls back to a subject naming the alert when nothing printable is left', () => {
    expect(buildSnsMessage(withSubject('\n\t ')).subject).toBe('stacks-watch token_transfer on mainnet');
  });
});

describe('256 KiB limit', () => {
  it('trims an oversized email body to fit and says so in the body', () => {
    const huge: OutgoingAlert = {
      ...rendered.contractLog,
      rendering: { ...rendered.contractLog.rendering, email: 'é'.repeat(200 * KIB) },
    };
    const built = buildSnsMessage(huge);
    const body = JSON.parse(built.message) as { default: string; email: string; sms: string };
    expect(built.bytes).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    expect(built.bytes).toBeGreaterThan(SNS_MAX_PAYLOAD_BYTES - 2 * KIB);
    expect(body.email).toMatch(/^é+\n\n\[Shortened to fit the 256 KiB SNS limit/);
    expect(body.default).toBe(JSON.stringify(contractLog));
    expect(built.adjustments).toEqual(['email body trimmed']);
  });

  it('cuts the longest alert fields when the alert is over the limit for another reason than its chain texts, keeping valid JSON', () => {
    // A rule's default name lists its addresses: the config, not the chain, makes it this long.
    const bigRule: ContractLogAlert = { ...contractLog, rule: 't'.repeat(300 * KIB) };
    const built = buildSnsMessage({ ...rendered.contractLog, alert: bigRule });
    const body = JSON.parse(built.message) as { default: string; email: string };
    const sent = JSON.parse(body.default) as ContractLogAlert & { truncated?: boolean };
    expect(built.bytes).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    expect(sent).toMatchObject({ key: contractLog.key, tx_id: contractLog.tx_id, truncated: true });
    expect(sent.rule!.endsWith('...[truncated]')).toBe(true);
    expect(body.email).toBe(rendered.contractLog.rendering.email);
    expect(built.adjustments).toEqual(['alert fields truncated']);
  });

  it('cuts a chain text nested in a list (a 300 KB call argument) to its bound, so the message fits', () => {
    const call = { ...contractLog, type: 'contract_call', args: ['u1', 'a'.repeat(300 * KIB)], result_repr: '(ok true)' } as unknown as ContractLogAlert;
    const built = buildSnsMessage({ alert: call, rendering: rendered.contractLog.rendering });
    const sent = JSON.parse((JSON.parse(built.message) as { default: string }).default) as { args: string[] };
    expect(built.bytes).toBeLessThan(64 * KIB);
    expect(sent.args[0]).toBe('u1');
    expect(sent.args[1]).toMatch(/^a{16384}…\[cut: 307,200 characters in all\]$/);
    expect(built.adjustments).toEqual(['chain texts cut to their bounds']);
  });

  it('keeps the readable email of a 1 MB print: the untrusted fields are shortened, not the whole body', () => {
    const print: ContractLogAlert = { ...contractLog, value_repr: `(buff 0x${'ab'.repeat(512 * KIB)})`, value_hex: `0x${'cd'.repeat(512 * KIB)}` };
    const rendering = render(print);
    const built = buildSnsMessage({ alert: print, rendering });
    const body = JSON.parse(built.message) as { default: string; email: string; sms: string };
    const sent = JSON.parse(body.default) as ContractLogAlert & { truncated?: boolean };

    expect(built.bytes).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    expect(body.email).toBe(rendering.email);
    expect(body.email).toContain(print.contract_id);
    expect(body.email).toContain(print.tx_id);
    expect(body.email).not.toMatch(/Too large/);
    expect(body.sms).toBe(rendering.sms);
    expect(sent).toMatchObject({ key: print.key, tx_id: print.tx_id, contract_id: print.contract_id, value_hex_bytes: 512 * KIB });
    expect(sent.value_repr.startsWith('(buff 0xabab')).toBe(true);
    expect(built.adjustments).toEqual(['chain texts cut to their bounds']);
  });

  it('leaves a message under the limit untouched', () => {
    const large: OutgoingAlert = { ...rendered.contractLog, rendering: { ...rendered.contractLog.rendering, email: 'y'.repeat(250 * KIB) } };
    const built = buildSnsMessage(large);
    expect((JSON.parse(built.message) as { email: string }).email).toBe('y'.repeat(250 * KIB));
    expect(built.adjustments).toEqual([]);
  });
});
