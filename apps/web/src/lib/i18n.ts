import { en } from '@atelier/shared/i18n/en';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { api, currentLanguage } from './api-client';

/**
 * Words come from the server (GET /api/localization/{locale}/words). The bundled English copy is
 * only what the first paint uses before that answer arrives.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  keySeparator: false,
  returnNull: false,
});

export async function loadServerWords(locale = currentLanguage()): Promise<void> {
  try {
    const words = await api<Record<string, string>>(`/api/localization/${locale}/words`, { quiet: true });
    i18n.addResourceBundle(locale, 'translation', words, true, true);
    if (i18n.language !== locale) await i18n.changeLanguage(locale);
  } catch {
    // Unknown language or offline: the bundled English words stay in use.
  }
}
