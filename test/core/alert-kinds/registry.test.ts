// Every kind in the registry, in every form: a kind that ships without a readable subject, an SMS that fits,
// filter attributes, a retraction that reads on its own, or a terminal block fails here.
import { describe, expect, it } from 'vitest';
import type { Alert, AlertType, DeepReorgAlert, TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import { alertKinds, filterAttributes, kindOf, ruleOf } from '../../../lambda/core/alert-kinds/registry';
import { chainKinds } from '../../../lambda/core/alert-kinds/chain-kinds';
import type { AlertKind } from '../../../lambda/core/alert-kinds/registry';
import { retractionOf } from '../../../lambda/core/alert-kinds/retraction';
import { deepReorgKind } from '../../../lambda/core/alert-kinds/deep-reorg';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { isGsm7, renderEmail, renderSms, renderSubject, renderTerminal, smsLength } from '../../../lambda/core/render';
import { ALERT_TYPES, MESSAGE_ATTRIBUTE } from '../../../infra/alert-message';

const kinds = Object.entries(alertKinds).map(([type, kind]) => ({ type, kind, sample: kind.sample as Alert }));
const chain = Object.entries(chainKinds).map(([type, kind]) => ({ type, sample: kind.sample, label: kind.chain.retraction.label }));
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** SNS: letters, digits, `_`, `-`, `.`; at most 256 characters; no AWS/Amazon prefix. */
const ATTRIBUTE_NAME = /^(?!aws\.|amazon\.)[A-Za-z0-9_.-]{1,256}$/i;
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const HOSTILE = `\u202eevil\u200b 🚀 <b>x</b>\n${'ж'.repeat(3_000)}`;

/** A transaction id or block hash: the API client admits only these, so chain text never reaches them. */
const HASH = /^0x[0-9a-f]{64}$/;

/** The sample with every free-text field (not its type, network, key, a type name or a hash) made hostile and long. */
function hostile(sample: Alert): Alert {
  const types: readonly string[] = ALERT_TYPES;
  const copy: Record<string, unknown> = { ...sample };
  for (const [field, value] of Object.entries(copy)) {
    if (typeof value !== 'string' || ['key', 'network'].includes(field) || types.includes(value) || HASH.test(value)) continue;
    copy[field] = value + HOSTILE;
  }
  return copy as unknown as Alert;
}

function expectOneSms(sms: string): void {
  expect(sms.length).toBeGreaterThan(20);
  const { units } = smsLength(sms);
  // One message: 160 GSM-7 characters, or 70 UCS-2 units when a character falls outside GSM-7.
  expect(units).toBeLessThanOrEqual(isGsm7(sms) ? 160 : 70);
  expect(sms).not.toMatch(INVISIBLE);
}

function expectSubject(subject: string): void {
  expect(subject).toMatch(PRINTABLE_ASCII);
  expect(subject.length).toBeLessThan(100);
  expect(subject).toMatch(/^\[stacks-watch\] \S/);
}

describe('the alert kind registry', () => {
  it('has a kind for every alert type, each under its own type, with a sample of that type', () => {
    expect(kinds.map((k) => k.type).sort()).toEqual([...ALERT_TYPES].sort());
    for (const { type, kind, sample } of kinds) {
      expect(kind.type).toBe(type);
      expect(sample.type).toBe(type);
      expect(kindOf(sample)).toBe(kind);
      expect(JSON.parse(JSON.stringify(sample))).toEqual(sample);
    }
  });

  it.each(kinds)('$type: a subject of printable ASCII under 100 characters, for the sample and hostile text', ({ sample }) => {
    expectSubject(renderSubject(sample));
    expectSubject(renderSubject(hostile(sample)));
  });

  it.each(kinds)('$type: one SMS within the GSM-7 160 / UCS-2 70 limits, for the sample and hostile text', ({ sample }) => {
    expectOneSms(renderSms(sample));
    expectOneSms(renderSms(hostile(sample)));
  });

  it.each(kinds)('$type: an email with a headline, the fields and the footer naming the alert, capped', ({ sample }) => {
    const email = renderEmail(sample);
    expect(email.split('\n')[0]!.length).toBeGreaterThan(10);
    expect(email).toContain(`stacks-watch alert ${sample.key}`);
    const long = renderEmail(hostile(sample));
    expect(long).not.toMatch(/[\u202e\u200b]/);
    expect(long.length).toBeLessThan(12_000);
  });

  it.each(kinds)('$type: SNS attributes type and network, plus valid, non-empty, declared ones', ({ type, sample }) => {
    const attributes = filterAttributes(sample);
    expect(attributes).toMatchObject({ type, network: 'mainnet' });
    expect(Object.keys(attributes).length).toBeLessThanOrEqual(10); // SNS's limit per message
    const declared: readonly string[] = Object.values(MESSAGE_ATTRIBUTE);
    for (const [name, value] of Object.entries(attributes)) {
      expect(name).toMatch(ATTRIBUTE_NAME);
      expect(declared, `attribute ${name} is not declared in infra/alert-message.ts`).toContain(name);
      expect(value).not.toBe('');
      expect(value).not.toMatch(INVISIBLE);
    }
  });

  it.each(kinds)('$type: a terminal block of the severity and subject, indented fields and the link, without the email footer', ({ kind, sample }) => {
    const lines = renderTerminal(sample).trimEnd().split('\n');
    expect(lines[0]).toBe(`${ruleOf(sample).severity.toUpperCase().padEnd(8)} ${renderSubject(sample).replace('[stacks-watch] ', '')}`);
    const link = kind.link(sample as never);
    const fieldLines = link === null ? lines.slice(1) : lines.slice(1, -1);
    expect(fieldLines.length).toBeGreaterThanOrEqual(1);
    for (const line of fieldLines) expect(line).toMatch(/^ {2}[A-Z][A-Za-z ]*: +\S/);
    if (link !== null) expect(lines.at(-1)).toBe(`  ${link}`);
    expect(renderTerminal(sample)).not.toContain('This email is plain text');
    expect(renderTerminal(hostile(sample))).not.toMatch(/[\u202e\u200b]/);
  });

  it.each(chain)('$type: a retraction that names the kind, sums it up and reaches its filtered subscribers', ({ type, sample, label }) => {
    const retraction = retractionOf(sample, sample.network);
    expect(retraction).toMatchObject({ retracts: sample.key, retracted_type: type, tx_id: sample.tx_id });
    expect(retraction.summary.length).toBeGreaterThan(10);
    expectSubject(renderSubject(retraction));
    expect(renderSubject(retraction)).toContain(`RETRACTED: ${label}`);
    expect(renderSms(retraction)).toContain(`RETRACTED (reorg): ${label}`);
    expect(renderEmail(retraction)).toContain(`the ${label} it reported is no longer on the canonical chain`);
    expect(renderEmail(retraction)).toContain(retraction.summary);
    // Every attribute a subscriber may have filtered the original on, the retraction carries too.
    const { type: _original, ...filteredOn } = filterAttributes(sample);
    expect(filterAttributes(retraction)).toMatchObject({ type: 'retraction', ...filteredOn });
  });

  it('makes the compiler reject a kind missing a part, or an alert type without a kind (checked by tsc)', () => {
    // @ts-expect-error a kind without its terminal wording does not type-check
    const noTerminal: AlertKind<DeepReorgAlert> = { ...deepReorgKind, terminal: undefined };
    // @ts-expect-error a chain kind without its retraction part does not type-check
    const noRetraction: AlertKind<TokenTransferAlert> = { ...tokenTransferKind, chain: { ...tokenTransferKind.chain, retraction: undefined } };
    // @ts-expect-error a registry lacking a kind for some alert type does not type-check
    const partial: { [T in AlertType]: AlertKind<Extract<Alert, { type: T }>> } = { ...chainKinds };
    expect([noTerminal.type, noRetraction.type, Object.keys(partial).length]).toEqual(['deep_reorg', 'token_transfer', Object.keys(chainKinds).length]);
  });
});
