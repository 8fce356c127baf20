import { en } from '@atelier/shared/i18n/en';
import { api, currentLanguage } from './api-client';
import { I18n, setDefaultI18n } from './i18n-runtime';

/**
 * Words come from the server (GET /api/localization/{locale}/words). The bundled English copy is
 * only what the first paint uses before that answer arrives.
 */
export const i18n = new I18n({ lng: 'en', fallbackLng: 'en', resources: { en } });
setDefaultI18n(i18n);

/** Dictionaries the app carries besides English, each loaded only when a page in its language opens. */
const BUNDLED: Record<string, () => Promise<Record<string, string>>> = {
  de: () => import('@atelier/shared/i18n/de').then((m) => m.de),
};

/**
 * Switches to the page's language (its `/de` prefix, else the stored one): the bundled dictionary
 * first, then the server's words over it key by key. A language neither knows stays English.
 */
export async function loadServerWords(locale = currentLanguage()): Promise<void> {
  try {
    const bundled = await BUNDLED[locale]?.();
    if (bundled) i18n.addResourceBundle(locale, bundled);
  } catch {
    // The chunk did not load (offline): the server's words may still come.
  }
  try {
    const words = await api<Record<string, string>>(`/api/localization/${locale}/words`, { quiet: true });
    i18n.addResourceBundle(locale, words);
  } catch {
    // Unknown language or offline: the bundled words, or English, stay in use.
  }
  if (i18n.hasResourceBundle(locale) && i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
}
