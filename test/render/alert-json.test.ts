// A big printed value in the alert JSON machines get: each member bounded on its own and saying what was cut.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundedAlert, cutClarityJson, VALUE_HEX_MAX_BYTES, VALUE_JSON_MAX_BYTES, VALUE_REPR_MAX_CHARS } from '../../lambda/core/render/alert-json';
import type { ClarityJson } from '../../lambda/core/clarity/decode';
import { bigPrintAlert } from '../support/big-print';
import { contractLog } from '../adapters/sns/outgoing-alerts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('an alert whose value is within the bounds', () => {
  it('goes out as it is, without the members that describe a cut', () => {
    expect(boundedAlert(contractLog, sha256)).toBe(contractLog);
  });
});

describe('a 1 MB printed value (8,000 principals)', () => {
  const alert = bigPrintAlert();
  const bounded = boundedAlert(alert, sha256) as typeof alert & Record<string, unknown>;

  it('keeps the start of the Clarity text and says how long it was', () => {
    expect(bounded.value_repr).toBe(
      `${alert.value_repr.slice(0, VALUE_REPR_MAX_CHARS)}…[cut: ${alert.value_repr.length.toLocaleString('en-US')} characters in all]`,
    );
  });

  it('keeps the first bytes of the hex, with the length and the SHA-256 of the whole value', () => {
    const whole = Buffer.from(alert.value_hex.slice(2), 'hex');
    expect(bounded.value_hex).toBe(alert.value_hex.slice(0, 2 + 2 * VALUE_HEX_MAX_BYTES));
    expect(bounded.value_hex_bytes).toBe(whole.length);
    expect(bounded.value_hex_sha256).toBe(createHash('sha256').update(whole).digest('hex'));
  });

  it('keeps the leading principals of the decoded list within its bound, and marks the value cut', () => {
    const sent = bounded.value as string[];
    expect(jsonBytes(sent)).toBeLessThanOrEqual(VALUE_JSON_MAX_BYTES);
    expect(jsonBytes(sent)).toBeGreaterThan(VALUE_JSON_MAX_BYTES - 100);
    expect(sent).toEqual((alert.value as string[]).slice(0, sent.length));
    expect(bounded.value_truncated).toBe(true);
  });

  it('leaves every other member as it was', () => {
    const { value_repr, value_hex, value, ...rest } = alert;
    expect(bounded).toMatchObject(rest);
  });
});

describe('cutting a decoded value to a byte budget', () => {
  it('cuts inside the first item that does not fit, through tuples and lists', () => {
    const value: ClarityJson = { name: 'vault', holders: Array.from({ length: 1_000 }, (_, i) => `holder-${i}`) };
    const { value: cut, cut: wasCut } = cutClarityJson(value, 500);
    expect(wasCut).toBe(true);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(500);
    const holders = (cut as { holders: string[] }).holders;
    expect((cut as { name: string }).name).toBe('vault');
    expect(holders.length).toBeGreaterThan(30);
    expect(holders).toEqual(Array.from({ length: holders.length }, (_, i) => `holder-${i}`));
  });

  it('cuts a long string between characters, counting its escapes, and ends it with a marker', () => {
    const text = `"é🚀\\`.repeat(10_000);
    const { value: cut } = cutClarityJson(text, 1_000);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(1_000);
    expect(jsonBytes(cut)).toBeGreaterThan(900);
    expect(text.startsWith((cut as string).slice(0, -1))).toBe(true);
    expect((cut as string).endsWith('…')).toBe(true);
  });

  it('leaves a value within the budget as it is', () => {
    const value: ClarityJson = { ok: ['1', true, null] };
    expect(cutClarityJson(value, 100)).toEqual({ value, cut: false });
  });
});
