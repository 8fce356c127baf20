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

/** How a conversion rounds: to the nearest minor unit (half away from zero), up (toward +∞) or down (toward −∞). */
export type Rounding = 'nearest' | 'up' | 'down';

/** a / b rounded as asked, for bigints. */
function divRound(a: bigint, b: bigint, rounding: Rounding = 'nearest'): bigint {
  const negative = a < 0n !== b < 0n;
  const x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  if (rounding === 'nearest') {
    const q = (x * 2n + y) / (y * 2n);
    return negative ? -q : q;
  }
  const floor = x / y;
  const exact = floor * y === x;
  // |a/b| truncated; toward +∞ for a positive quotient that is not exact means one more, for a negative one means the truncation.
  const q = exact ? floor : (rounding === 'up') !== negative ? floor + 1n : floor;
  return negative ? -q : q;
}

/**
 * Converts minor units of the base currency to minor units of another currency at `rate` (units of
 * that currency per 1 base unit), from `fromDecimals` to `toDecimals` digits: 1000 EUR cents at
 * "160.5" to JPY (0 decimals) is 1605 yen. `rounding` says which way a fraction of a minor unit goes.
 */
export function convertMinor(
  minor: number,
  rate: string | number,
  toDecimals = BASE_CURRENCY_DECIMALS,
  fromDecimals = BASE_CURRENCY_DECIMALS,
  rounding: Rounding = 'nearest',
): number {
  const { digits, scale } = parseRate(rate);
  const shift = toDecimals - fromDecimals;
  const numerator = BigInt(Math.round(minor)) * digits * 10n ** BigInt(Math.max(0, shift));
  const denominator = 10n ** BigInt(scale) * 10n ** BigInt(Math.max(0, -shift));
  return Number(divRound(numerator, denominator, rounding));
}

/** A currency as conversions need it: units per 1 base unit (an exact decimal) and its number of decimals. */
export type CurrencyRate = { rate: string | number; decimals: number };

/**
 * THE conversion, for every path that turns base-currency cents into a currency's minor units (prices,
 * balances, shortfalls, deposit bounds): exact, integer arithmetic, in the currency's own decimals.
 */
export function toCurrencyMinor(baseMinor: number, currency: CurrencyRate, rounding: Rounding = 'nearest'): number {
  return convertMinor(baseMinor, currency.rate, currency.decimals, BASE_CURRENCY_DECIMALS, rounding);
}

/** The way back: a currency's minor units (what a user pays in) as base-currency cents (what is credited). */
export function toBaseMinor(currencyMinor: number, currency: CurrencyRate, rounding: Rounding = 'nearest'): number {
  const { digits, scale } = parseRate(currency.rate);
  if (digits === 0n) throw new RangeError('An exchange rate of 0 converts nothing.');
  const shift = BASE_CURRENCY_DECIMALS - currency.decimals;
  const numerator = BigInt(Math.round(currencyMinor)) * 10n ** BigInt(scale) * 10n ** BigInt(Math.max(0, shift));
  const denominator = digits * 10n ** BigInt(Math.max(0, -shift));
  return Number(divRound(numerator, denominator, rounding));
}

/**
 * What a shortfall of `baseMinor` cents is shown as, in the currency: rounded UP, so that paying the
 * amount shown (credited back at `toBaseMinor`, to the nearest cent) always covers the shortfall.
 */
export function shortfallAmount(baseMinor: number, currency: CurrencyRate): number {
  return minorToAmount(toCurrencyMinor(Math.max(0, baseMinor), currency, 'up'), currency.decimals);
}

/** A plain decimal as a person types it: digits, optionally a point and more digits ("12", "12.5"; never "1e3", "0x10", " 7 "). */
export const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A plain decimal amount (a string matching PLAIN_DECIMAL) as minor units with `decimals` digits,
 * exactly (no float): "12.34" with 2 → 1234. Refuses more decimals than the currency has.
 */
export function decimalToMinor(text: string, decimals = BASE_CURRENCY_DECIMALS): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError('Please enter an amount such as 12.50.');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) {
    throw new RangeError(decimals === 0 ? 'For this currency, only whole numbers are allowed.' : `The amount may have at most ${decimals} decimals.`);
  }
  const minor = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('This amount is too large.');
  return Number(minor);
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

/**
 * SPEC §9: prices shown with 2 decimals (or the currency's own count), followed by the currency symbol.
 * The server's texts (e-mails, receipts, chat notices) use it; the web shows amounts in the page's
 * language with formatMoney.
 */
export function formatPrice(amount: number, symbol: string, decimals = BASE_CURRENCY_DECIMALS): string {
  return `${amount.toFixed(decimals)} ${symbol}`;
}

/**
 * A currency as a display needs it: its ISO code (what `Intl` knows it by), the symbol the site is
 * configured with (staff can edit it; the code when absent) and its decimals (the code's own count
 * per `Intl` when absent: JPY 0, EUR 2).
 */
export type MoneyCurrency = { code: string; symbol?: string; decimals?: number };

/** One piece of a formatted amount; `currency` holds the site's symbol. */
export type MoneyPart = { type: 'currency' | 'number' | 'literal'; value: string };

type Formatter = { format: Intl.NumberFormat; fractionDigits: number; currencyStyle: boolean };
const formatters = new Map<string, Formatter>();
let knownCodes: Set<string> | null | undefined;

/**
 * Whether Intl has data for an ISO code: it refuses a malformed one ("CREDITS") and shows a
 * well-formed unknown one as it is ("CRD 1.00"); both are formatted as a number and the symbol.
 */
function knownCurrency(code: string): boolean {
  if (!/^[A-Za-z]{3}$/.test(code)) return false;
  if (knownCodes === undefined) {
    const list = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
    knownCodes = list ? new Set(list('currency')) : null;
  }
  return knownCodes ? knownCodes.has(code.toUpperCase()) : true;
}

/** A cached formatter: building one costs far more than using it, and a page shows many prices. */
function numberFormat(locale: string, code: string, decimals: number | undefined): Formatter {
  const key = `${locale}|${code}|${decimals ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const digits = decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
    let tag = locale;
    try {
      Intl.NumberFormat.supportedLocalesOf(tag);
    } catch {
      tag = 'en'; // not a language tag at all
    }
    const format = knownCurrency(code)
      ? new Intl.NumberFormat(tag, { style: 'currency', currency: code, ...digits })
      : // A code Intl does not know (an internal credits currency): a plain number, the symbol follows.
        new Intl.NumberFormat(tag, { style: 'decimal', ...(decimals === undefined ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : digits) });
    const options = format.resolvedOptions();
    formatter = { format, fractionDigits: options.maximumFractionDigits ?? 2, currencyStyle: options.style === 'currency' };
    formatters.set(key, formatter);
  }
  return formatter;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/**
 * An amount (in units, 12.5 for 12.50 €) in the page's language, as pieces: `Intl.NumberFormat`
 * puts the symbol where the language puts it ("€1,234.50" in English, "1.234,50 €" in German) with
 * its separators and sign, and the currency's own decimals (no decimals for JPY). The symbol is the
 * site's. A code `Intl` refuses is shown as a decimal number followed by the symbol.
 */
export function formatMoneyParts(amount: number, currency: MoneyCurrency, locale = 'en'): MoneyPart[] {
  const { format, fractionDigits, currencyStyle } = numberFormat(locale, currency.code, currency.decimals);
  // Without a configured symbol, Intl's own ("€" for EUR), else the code.
  const symbolOf = (intl?: string) => currency.symbol || intl || currency.code;
  // An amount that rounds to zero shows no sign ("-0.00 €" reads as a debt).
  const value = Math.abs(amount) < 0.5 * 10 ** -fractionDigits ? 0 : amount;
  const parts: MoneyPart[] = [];
  const push = (type: MoneyPart['type'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.type === type && type !== 'currency') last.value += text;
    else parts.push({ type, value: text });
  };
  const raw = format.formatToParts(value);
  for (const part of raw) {
    if (part.type === 'currency') push('currency', symbolOf(part.value));
    else if (part.type === 'literal') push('literal', part.value);
    else push('number', part.value);
  }
  if (!currencyStyle) {
    push('literal', '\u00a0');
    push('currency', symbolOf());
  }
  // A symbol made of letters ("Fr.", "CHF") set against the digits where Intl had a sign ("$") gets a space.
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type !== 'currency') continue;
    const before = parts[i - 1];
    const after = parts[i + 1];
    if (before?.type === 'number' && DIGIT.test(before.value.at(-1) ?? '') && LETTER.test(part.value.at(0) ?? '')) {
      parts.splice(i++, 0, { type: 'literal', value: '\u00a0' });
    }
    if (after?.type === 'number' && DIGIT.test(after.value.at(0) ?? '') && LETTER.test(part.value.at(-1) ?? '')) {
      parts.splice(i + 1, 0, { type: 'literal', value: '\u00a0' });
    }
  }
  return parts;
}

/** formatMoneyParts as one string: formatMoney(1234.5, { code: 'EUR', symbol: '€' }, 'de') is "1.234,50 €". */
export function formatMoney(amount: number, currency: MoneyCurrency, locale = 'en'): string {
  return formatMoneyParts(amount, currency, locale)
    .map((p) => p.value)
    .join('');
}

const decimalFormats = new Map<string, Intl.NumberFormat>();

/** A plain number in the page's language (2.4 in English, 2,4 in German), by a formatter kept per language. */
export function formatNumber(value: number, locale = 'en'): string {
  let format = decimalFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    decimalFormats.set(locale, format);
  }
  return format.format(value);
}

/**
 * Builds the formatters a page's first render uses (numbers, and amounts in the base currency). The
 * first formatter of a language sets up its data, which took about 12 ms in a fresh browser (50 ms at
 * Lighthouse's 4x slowdown): the web app calls this in a task of its own before it hydrates, so that
 * cost is not added to hydration's longest task.
 */
export function prepareNumberFormats(locale = 'en'): void {
  formatNumber(0, locale);
  numberFormat(locale, DEFAULT_CURRENCY, BASE_CURRENCY_DECIMALS);
}

export const DEFAULT_CURRENCY = 'EUR';
export const FALLBACK_CURRENCY_SYMBOL = '€';
