/**
 * Money is carried as integer minor units (cents) everywhere inside the system.
 * Display amounts (numbers with 2 decimals) are produced once, on the server.
 */

/** Converts minor units in the base currency to minor units in another currency at `rate`. */
export function convertMinor(minor: number, rate: number): number {
  return Math.round(minor * rate);
}

/** 1234 → 12.34 (a number, as the API shows prices). */
export function minorToAmount(minor: number): number {
  return Math.round(minor) / 100;
}

/** 12.34 → 1234; rejects values with more than 2 decimals. */
export function amountToMinor(amount: number): number {
  const minor = Math.round(amount * 100);
  if (Math.abs(minor - amount * 100) > 1e-6) throw new RangeError('At most 2 decimals are allowed.');
  return minor;
}

/** SPEC §9: prices shown with 2 decimals, followed by the currency symbol. */
export function formatPrice(amount: number, symbol: string): string {
  return `${amount.toFixed(2)} ${symbol}`;
}

export const DEFAULT_CURRENCY = 'EUR';
export const FALLBACK_CURRENCY_SYMBOL = '€';
