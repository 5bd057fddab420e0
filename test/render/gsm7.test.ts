import { describe, expect, it } from 'vitest';
import { fitSms, gsm7Length, isGsm7, smsLength, toGsm7 } from '../../lambda/core/render';

describe('isGsm7', () => {
  it('accepts the basic alphabet, accented letters it has included', () => {
    expect(isGsm7('Hello @ £5 ¥ é ü Ñ Δ ß _ ¿!')).toBe(true);
  });

  it('accepts the extension characters', () => {
    expect(isGsm7('^{}\\[~]|€')).toBe(true);
  });

  it('rejects emoji, curly quotes, the ellipsis and other scripts', () => {
    for (const text of ['🚀', '’', '…', 'ç', '你', '\u202E', '`']) expect(isGsm7(text)).toBe(false);
  });
});

describe('gsm7Length', () => {
  it('counts extension characters as two septets', () => {
    expect(gsm7Length('abc')).toBe(3);
    expect(gsm7Length('^{}\\[~]|€')).toBe(18);
  });
});

describe('smsLength', () => {
  it('gives 160 for GSM-7 text and 70 in UTF-16 units for anything else', () => {
    expect(smsLength('a€')).toEqual({ encoding: 'GSM-7', units: 3, limit: 160 });
    expect(smsLength('a🚀')).toEqual({ encoding: 'UCS-2', units: 3, limit: 70 });
  });
});

describe('toGsm7', () => {
  it('keeps GSM-7 text unchanged', () => {
    expect(toGsm7('Zahlung an Müller: 5€ {ok}')).toBe('Zahlung an Müller: 5€ {ok}');
  });

  it('spells curly quotes, dashes and the ellipsis in GSM-7', () => {
    expect(toGsm7('“hi” – it’s…')).toBe('"hi" - it\'s...');
  });

  it('keeps the base letter of an accented letter GSM-7 lacks', () => {
    expect(toGsm7('ça ê ő')).toBe('ca e o');
  });

  it('drops emoji, other scripts and invisible characters', () => {
    const out = toGsm7('gm🚀 你好\u200B\u202Eok');
    expect(out).toBe('gm ok');
    expect(isGsm7(out)).toBe(true);
  });
});

describe('fitSms', () => {
  it('leaves a message of exactly 160 septets alone', () => {
    const text = 'a'.repeat(158) + '€';
    expect(fitSms(text)).toBe(text);
  });

  it('cuts a longer GSM-7 message to 160 septets with a marker', () => {
    const out = fitSms('a'.repeat(300));
    expect(gsm7Length(out)).toBe(160);
    expect(out.endsWith('..')).toBe(true);
  });

  it('counts extension characters when cutting', () => {
    const out = fitSms('€'.repeat(100));
    expect(gsm7Length(out)).toBeLessThanOrEqual(160);
    expect(gsm7Length(out)).toBeGreaterThanOrEqual(159);
  });

  it('cuts a message outside GSM-7 to 70 UTF-16 units without splitting an emoji', () => {
    const out = fitSms('🚀'.repeat(100));
    expect(out.length).toBeLessThanOrEqual(70);
    expect(out).not.toMatch(/\p{Cs}/u); // no lone surrogate
  });
});
