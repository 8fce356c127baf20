import type { Currency } from '@atelier/shared';
import { SELECTED_CURRENCY_KEY } from '@atelier/shared/constants';
import { resolveCurrency, SELECTED_CURRENCY_COOKIE } from '@atelier/shared/currency';
import { useEffect, useSyncExternalStore } from 'react';
import { readCookie, writeCookie } from '../../lib/cookies';
import { useCurrencies } from '../site';

export { resolveCurrency };

const listeners = new Set<() => void>();

function readSaved(): string | null {
  try {
    return localStorage.getItem(SELECTED_CURRENCY_KEY);
  } catch {
    return null;
  }
}

/** Saves the choice (the API client reads it for the X-Currency header) and tells every subscriber. */
export function saveCurrency(code: string) {
  // The cookie copy lets the server price the answers it puts into the next page's HTML.
  if (readCookie(SELECTED_CURRENCY_COOKIE) !== code) writeCookie(SELECTED_CURRENCY_COOKIE, code, { days: 365 });
  if (readSaved() === code) return;
  localStorage.setItem(SELECTED_CURRENCY_KEY, code);
  for (const l of listeners) l();
}

function savedOnServer(): string | null {
  return readCookie(SELECTED_CURRENCY_COOKIE);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === SELECTED_CURRENCY_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export type SelectedCurrency = {
  /** Every currency the server offers. */
  list: Currency[];
  /** The resolved currency; undefined until the list has loaded. */
  current: Currency | undefined;
  /** True once the list answered (or failed): price queries wait for it so they never ask in an unknown code. */
  ready: boolean;
  /**
   * The code price queries put in their key and send as `currency`, so a change re-prices every
   * visible price; null when the server offers no list (its default applies).
   */
  code: string | null;
  select: (code: string) => void;
};

export function useSelectedCurrency(): SelectedCurrency {
  const currencies = useCurrencies();
  // A page rendered on the server used the cookie copy; hydration starts from the same value.
  const saved = useSyncExternalStore(subscribe, readSaved, savedOnServer);
  const list = currencies.data ?? [];
  const current = resolveCurrency(list, saved);
  // A missing or unknown saved code is replaced by the fallback, so every request speaks a known currency.
  useEffect(() => {
    if (current) saveCurrency(current.code);
  }, [current]);
  return { list, current, ready: !currencies.isPending, code: current?.code ?? null, select: saveCurrency };
}
