import { SELECTED_CURRENCY_KEY } from './constants';

/** The cookie that mirrors the visitor's saved currency, so the server can price the HTML it sends. */
export const SELECTED_CURRENCY_COOKIE = SELECTED_CURRENCY_KEY;

/**
 * SPEC §4 selected currency: the saved code if the server knows it, else the currency marked
 * default, else the first one. Undefined while the list is empty.
 */
export function resolveCurrency<C extends { code: string; default: boolean }>(list: readonly C[], saved: string | null | undefined): C | undefined {
  return list.find((c) => c.code === saved) ?? list.find((c) => c.default) ?? list[0];
}
