import { describe, expect, it } from 'vitest';
import { sanitizeUntrusted, toPrintableAscii } from '../../lambda/core/render';
import { showControlCharacters, truncate } from '../../lambda/core/render/untrusted-text';

describe('sanitizeUntrusted', () => {
  it('turns line breaks into spaces so a value cannot start a new line', () => {
    expect(sanitizeUntrusted('a\r\nSubject: b\nc', 100)).toBe('a Subject: b c');
  });

  it('removes C0 and C1 control characters and DEL', () => {
    expect(sanitizeUntrusted('a\u0000b\u0007c\u001bd\u007fe\u0085f\u009bg', 100)).toBe('abcde fg');
  });

  it('removes bidi overrides, isolates and marks', () => {
    const text = 'pay\u202Eevil\u202C \u2066x\u2069 \u200Ey\u200F \u202Az\u202B';
    expect(sanitizeUntrusted(text, 100)).toBe('payevil x y z');
  });

  it('removes zero-width characters and the byte order mark', () => {
    expect(sanitizeUntrusted('a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf', 100)).toBe('abcdef');
  });

  it('removes Unicode tag characters that can hide ASCII text', () => {
    const hidden = Array.from('ignore', (ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0))).join('');
    expect(sanitizeUntrusted(`ok${hidden}`, 100)).toBe('ok');
  });

  it('removes lone surrogates but keeps emoji', () => {
    expect(sanitizeUntrusted('a\uD800b\uDC00c 🚀', 100)).toBe('abc 🚀');
  });

  it('keeps HTML as inert text', () => {
    expect(sanitizeUntrusted('<script>alert(1)</script>', 100)).toBe('<script>alert(1)</script>');
  });

  it('caps the length, ending with an ellipsis', () => {
    const out = sanitizeUntrusted('x'.repeat(50), 10);
    expect(out).toBe(`${'x'.repeat(9)}…`);
  });

  it('cuts a 100 KB value to the cap, ending with an ellipsis', () => {
    const out = sanitizeUntrusted('(tuple '.repeat(15_000), 2_000);
    expect(Array.from(out)).toHaveLength(2_000);
    expect(out.endsWith('…')).toBe(true);
  });
});

describe('truncate', () => {
  it('never splits an emoji into half a surrogate pair', () => {
    const out = truncate('🚀🚀🚀🚀', 3, '.');
    expect(out).toBe('🚀🚀.');
    expect(out).not.toMatch(/\p{Cs}/u); // no lone surrogate
  });

  it('leaves text within the limit alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
  });
});

describe('toPrintableAscii', () => {
  it('drops accents and spells common punctuation in ASCII', () => {
    expect(toPrintableAscii('Café “quoted” – done…')).toBe('Cafe "quoted" - done...');
  });

  it('removes emoji and other scripts, leaving printable ASCII only', () => {
    const out = toPrintableAscii('gm 🚀 שלום 你好 ok');
    expect(out).toBe('gm ok');
    expect(out).toMatch(/^[\x20-\x7E]*$/);
  });

  it('reduces compatibility forms such as full-width letters', () => {
    expect(toPrintableAscii('ＳＴＸ')).toBe('STX');
  });
});

describe('showControlCharacters', () => {
  it('shows escape codes, bidi overrides and bells as their escapes, keeping line breaks, tabs and other text', () => {
    expect(showControlCharacters('a\u001b[31mred\u202eb\n\tc\u009bd é 😀\u0007')).toBe('a\\x1b[31mred\\u202eb\n\tc\\x9bd é 😀\\x07');
  });
});
