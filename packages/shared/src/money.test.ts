import { describe, expect, it } from 'vitest';
import { amountToMinor, convertMinor, formatPrice, minorToAmount, parseRate } from './money';

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
