import type { Currency } from '@atelier/shared';
import { describe, expect, it } from 'vitest';
import { resolveCurrency } from './selected-currency';

const eur: Currency = { code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 };
const usd: Currency = { code: 'USD', symbol: '$', value: 1.08, default: false, name: 'USD', decimals: 2 };
const gbp: Currency = { code: 'GBP', symbol: '£', value: 0.85, default: false, name: 'GBP', decimals: 2 };

describe('selected currency fallback (SPEC §4)', () => {
  it('keeps a saved code the server knows', () => {
    expect(resolveCurrency([eur, usd, gbp], 'USD')?.code).toBe('USD');
  });
  it('falls back to the default when nothing is saved', () => {
    expect(resolveCurrency([usd, eur, gbp], null)?.code).toBe('EUR');
  });
  it('falls back to the default when the saved code is unknown', () => {
    expect(resolveCurrency([usd, eur], 'JPY')?.code).toBe('EUR');
  });
  it('falls back to the first when no currency is marked default', () => {
    expect(resolveCurrency([{ ...gbp }, { ...usd }], 'JPY')?.code).toBe('GBP');
  });
  it('has nothing to resolve in an empty list', () => {
    expect(resolveCurrency([], 'EUR')).toBeUndefined();
  });
});
