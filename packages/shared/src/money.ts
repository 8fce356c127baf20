/**
 * Money is carried as integer minor units (cents) everywhere inside the system, in the base currency
 * (EUR, 2 decimals). Display amounts are produced once, on the server, by these helpers. Exchange
 * rates are exact decimals (strings such as "1.08000000", as PostgreSQL's numeric gives them) and are
 * applied with integer arithmetic, so no float ever rounds a price.
 */

export const BASE_CURRENCY_DECIMALS = 2;

/** A rate as an exact fraction: digits / 10^scale. Accepts "1.08", "0.85000000", 1.08 (converted via its shortest decimal form). */
export function parseRate(rate: string | number): { digits: bigint; scale: number } {
  const text = typeof rate === 'number' ? rate.toString() : rate.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a valid exchange rate: ${text.slice(0, 30)}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return { digits: BigInt(match[1]! + fraction), scale: fraction.length };
}

/** a / b rounded half away from zero, for bigints. */
function divRound(a: bigint, b: bigint): bigint {
  const negative = a < 0n !== b < 0n;
  const x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  const q = (x * 2n + y) / (y * 2n);
  return negative ? -q : q;
}

/**
 * Converts minor units of the base currency to minor units of another currency at `rate` (units of
 * that currency per 1 base unit), from `fromDecimals` to `toDecimals` digits: 1000 EUR cents at
 * "160.5" to JPY (0 decimals) is 1605 yen.
 */
export function convertMinor(minor: number, rate: string | number, toDecimals = BASE_CURRENCY_DECIMALS, fromDecimals = BASE_CURRENCY_DECIMALS): number {
  const { digits, scale } = parseRate(rate);
  const shift = toDecimals - fromDecimals;
  const numerator = BigInt(Math.round(minor)) * digits * 10n ** BigInt(Math.max(0, shift));
  const denominator = 10n ** BigInt(scale) * 10n ** BigInt(Math.max(0, -shift));
  return Number(divRound(numerator, denominator));
}

/** 1234 → 12.34 (a number, as the API shows prices); with 0 decimals, 1234 → 1234. */
export function minorToAmount(minor: number, decimals = BASE_CURRENCY_DECIMALS): number {
  return Math.round(minor) / 10 ** decimals;
}

/** 12.34 → 1234; rejects values with more decimals than the currency has. */
export function amountToMinor(amount: number, decimals = BASE_CURRENCY_DECIMALS): number {
  const factor = 10 ** decimals;
  const minor = Math.round(amount * factor);
  if (Math.abs(minor - amount * factor) > 1e-6) {
    throw new RangeError(decimals === 0 ? 'For this currency, only whole numbers are allowed.' : `At most ${decimals} decimals are allowed.`);
  }
  return minor;
}

/** SPEC §9: prices shown with 2 decimals (or the currency's own count), followed by the currency symbol. */
export function formatPrice(amount: number, symbol: string, decimals = BASE_CURRENCY_DECIMALS): string {
  return `${amount.toFixed(decimals)} ${symbol}`;
}

export const DEFAULT_CURRENCY = 'EUR';
export const FALLBACK_CURRENCY_SYMBOL = '€';
