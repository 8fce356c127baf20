import type { Currency } from '@atelier/shared';
import { FALLBACK_CURRENCY_SYMBOL, formatMoney, formatMoneyParts, type MoneyCurrency, type MoneyPart } from '@atelier/shared/money';
import { useMemo } from 'react';
import { useTranslation } from '../../lib/i18n-runtime';
import { useCurrencies } from '../site';

/** What an amount is shown in: the currency's code, and the symbol or decimals an answer gave, if any. */
export type MoneyIn = { code: string; symbol?: string; decimals?: number };

export type Money = {
  /** The amount as text in the page's language: "€1,234.50" in English, "1.234,50 €" in German, "¥3,078". */
  format: (amount: number, currency: string | MoneyIn) => string;
  /** The same as pieces, the symbol marked (the Price component styles it). */
  parts: (amount: number, currency: string | MoneyIn) => MoneyPart[];
  /** The currency as the site configures it: its symbol (staff may edit it) and its decimals. */
  currency: (currency: string | MoneyIn) => MoneyCurrency;
};

/** The site's symbol and decimals for a code; an answer's own symbol or decimals win. */
export function moneyCurrency(list: readonly Currency[] | undefined, currency: string | MoneyIn): MoneyCurrency {
  const asked = typeof currency === 'string' ? { code: currency } : currency;
  const known = list?.find((c) => c.code === asked.code);
  return {
    code: asked.code,
    symbol: asked.symbol ?? known?.symbol ?? (asked.code === 'EUR' ? FALLBACK_CURRENCY_SYMBOL : undefined),
    decimals: asked.decimals ?? known?.decimals,
  };
}

/**
 * Money as the page shows it (issue 18 bug 7): formatted by Intl.NumberFormat for the page's language,
 * with the site's symbols and each currency's decimals. The server renders with the request's
 * language and the same currency list, so the HTML and the hydrated page agree.
 */
export function useMoney(): Money {
  const { i18n } = useTranslation();
  const list = useCurrencies().data;
  const locale = i18n.language;
  return useMemo(() => {
    const currencyOf = (currency: string | MoneyIn) => moneyCurrency(list, currency);
    return {
      format: (amount, currency) => formatMoney(amount, currencyOf(currency), locale),
      parts: (amount, currency) => formatMoneyParts(amount, currencyOf(currency), locale),
      currency: currencyOf,
    };
  }, [list, locale]);
}
