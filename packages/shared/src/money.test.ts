import { describe, expect, it } from 'vitest';
import { amountToMinor, convertMinor, formatMoney, formatMoneyParts, formatNumber, formatPrice, minorToAmount, parseRate, prepareNumberFormats } from './money';

describe('money helpers', () => {
  it('apply exchange rates exactly, with integer arithmetic', () => {
    // 0.1 + 0.2 style float drift cannot happen: 1.15 * 1000 is 1150 exactly.
    expect(convertMinor(1000, '1.15000000')).toBe(1150);
    expect(convertMinor(999, '1.08')).toBe(1079); // 1078.92 → 1079
    expect(convertMinor(1005, '0.5')).toBe(503); // 502.5 rounds half up
    expect(convertMinor(123456789, '0.85000000')).toBe(104938271); // 104938270.65
    expect(convertMinor(1000, 1.08)).toBe(1080);
    expect(parseRate('1.08000000')).toEqual({ digits: 108n, scale: 2 });
  });

  it('convert between currencies with different decimals (EUR cents to whole yen)', () => {
    expect(convertMinor(1000, '160.5', 0)).toBe(1605);
    expect(convertMinor(1, '160.5', 0)).toBe(2); // 1.605 yen
    expect(minorToAmount(1605, 0)).toBe(1605);
    expect(formatPrice(1605, '¥', 0)).toBe('1605 ¥');
  });

  it('refuse fractions a currency does not have', () => {
    expect(amountToMinor(12.34)).toBe(1234);
    expect(() => amountToMinor(12.345)).toThrow('At most 2 decimals are allowed.');
    expect(() => amountToMinor(10.5, 0)).toThrow('For this currency, only whole numbers are allowed.');
    expect(amountToMinor(10, 0)).toBe(10);
  });

  it('reject a rate that is not a plain decimal', () => {
    expect(() => parseRate('1e3')).toThrow(RangeError);
    expect(() => parseRate('-1')).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  const eur = { code: 'EUR', symbol: '€', decimals: 2 };
  const jpy = { code: 'JPY', symbol: '¥', decimals: 0 };
  const nbsp = '\u00a0';

  it('puts the symbol where the language puts it, with its separators', () => {
    expect(formatMoney(19, eur, 'en')).toBe('€19.00');
    expect(formatMoney(19, eur, 'de')).toBe(`19,00${nbsp}€`);
    expect(formatMoney(1234567.5, eur, 'en')).toBe('€1,234,567.50');
    expect(formatMoney(1234567.5, eur, 'de')).toBe(`1.234.567,50${nbsp}€`);
  });

  it('shows no decimals for a currency without them (JPY)', () => {
    expect(formatMoney(3078, jpy, 'de')).toBe(`3.078${nbsp}¥`);
    expect(formatMoney(3078, jpy, 'en')).toBe('¥3,078');
    // Without the site's count, the code's own: JPY has none.
    expect(formatMoney(3078, { code: 'JPY', symbol: '¥' }, 'en')).toBe('¥3,078');
  });

  it('signs negative amounts, and never a zero', () => {
    expect(formatMoney(-1234.5, eur, 'en')).toBe('-€1,234.50');
    expect(formatMoney(-1234.5, eur, 'de')).toBe(`-1.234,50${nbsp}€`);
    expect(formatMoney(-0, eur, 'en')).toBe('€0.00');
    expect(formatMoney(-0.004, eur, 'de')).toBe(`0,00${nbsp}€`);
  });

  it('shows the symbol the site is configured with, not the one Intl knows', () => {
    expect(formatMoney(12, { code: 'USD', symbol: 'US$', decimals: 2 }, 'en')).toBe('US$12.00');
    // A symbol of letters is set apart from the digits.
    expect(formatMoney(12, { code: 'USD', symbol: 'USD', decimals: 2 }, 'en')).toBe(`USD${nbsp}12.00`);
    expect(formatMoney(-12, { code: 'USD', symbol: 'USD', decimals: 2 }, 'en')).toBe(`-USD${nbsp}12.00`);
    expect(formatMoney(12, { code: 'EUR' }, 'en')).toBe('€12.00');
  });

  it('formats a code Intl does not know as a number followed by the symbol', () => {
    expect(formatMoney(1234.5, { code: 'CREDITS', symbol: '✦', decimals: 2 }, 'en')).toBe(`1,234.50${nbsp}✦`);
    expect(formatMoney(1234.5, { code: 'CRD', symbol: 'cr', decimals: 1 }, 'de')).toBe(`1.234,5${nbsp}cr`);
    expect(formatMoney(7, { code: 'CRD' }, 'en')).toBe(`7.00${nbsp}CRD`);
  });

  it('falls back to English for a language Intl does not know', () => {
    expect(formatMoney(1, eur, 'not a locale!')).toBe('€1.00');
  });

  it('gives the pieces, the symbol marked, so a price can style it', () => {
    expect(formatMoneyParts(1234.5, eur, 'de')).toEqual([
      { type: 'number', value: '1.234,50' },
      { type: 'literal', value: nbsp },
      { type: 'currency', value: '€' },
    ]);
    expect(formatMoneyParts(-5, eur, 'en')).toEqual([
      { type: 'number', value: '-' },
      { type: 'currency', value: '€' },
      { type: 'number', value: '5.00' },
    ]);
  });
});

describe('formatNumber', () => {
  it("writes a number in the page's language, before and after the formats are prepared", () => {
    expect(formatNumber(2.4, 'en')).toBe('2.4');
    expect(formatNumber(2.4, 'de')).toBe('2,4');
    prepareNumberFormats('de');
    expect(formatNumber(1234.5, 'de')).toBe('1.234,5');
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatMoney(1234.5, { code: 'EUR', symbol: '€', decimals: 2 }, 'de')).toBe('1.234,50\u00a0€');
  });
});
