import { BASE_CURRENCY_DECIMALS, DEFAULT_CURRENCY, FALLBACK_CURRENCY_SYMBOL, minorToAmount, toCurrencyMinor } from '@atelier/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currencies } from '../db/schema';
import { appCache } from './app-cache';
import { validationError } from './app-error';

/**
 * The currency prices are shown in: its code, symbol, units per 1 unit of the base currency (EUR) as
 * an exact decimal string, and its number of decimals.
 */
export type DisplayCurrency = { code: string; symbol: string; rate: string; decimals: number };

/** A price in minor units of the base currency, as an amount in the display currency (SPEC §7 `price`). */
export function displayAmount(minor: number, currency: DisplayCurrency): number {
  return minorToAmount(toCurrencyMinor(minor, currency), currency.decimals);
}

/** The code a request asks for: the `currency` parameter, else the X-Currency header (SPEC §7). */
export function requestedCurrency(request: FastifyRequest): string | undefined {
  const query = (request.query as { currency?: unknown } | undefined)?.currency;
  if (typeof query === 'string' && query.trim() !== '') return query.trim().toUpperCase();
  const header = request.headers['x-currency'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim().toUpperCase();
  return undefined;
}

type CurrencyRow = DisplayCurrency & { isDefault: boolean };

/** The requested code among currency rows; none asked gives the default. Unknown: 422 on `currency`. */
function pickCurrency(rows: CurrencyRow[], code: string | undefined): DisplayCurrency {
  const match = code ? rows.find((r) => r.code === code) : rows.find((r) => r.isDefault);
  if (match) return { code: match.code, symbol: match.symbol, rate: match.rate, decimals: match.decimals };
  if (code && code !== DEFAULT_CURRENCY) throw validationError({ currency: `The currency "${code.slice(0, 10)}" is not available.` });
  return { code: DEFAULT_CURRENCY, symbol: FALLBACK_CURRENCY_SYMBOL, rate: '1', decimals: BASE_CURRENCY_DECIMALS };
}

const currencyColumns = {
  code: currencies.code,
  symbol: currencies.symbol,
  rate: currencies.rate,
  decimals: currencies.decimals,
  isDefault: currencies.isDefault,
};

/** Every currency as this app server keeps it, read again when the table changes (the `catalog` change notice). */
const currencyTableOf = appCache('catalog', (app) => app.db.select(currencyColumns).from(currencies).execute());

/**
 * Resolves the requested code against the currencies, as this app server keeps them (no query per
 * request); none asked gives the default currency. An unknown code is the client's mistake: 422
 * naming the `currency` field.
 */
export async function resolveDisplayCurrency(app: FastifyInstance, code: string | undefined): Promise<DisplayCurrency> {
  return pickCurrency(await currencyTableOf(app), code);
}
