import { MESSAGES, parseMessage } from '@atelier/shared/messages';
import { currentLanguage } from './api-client';
import { contract, payloadOf, quiet } from './api-contract';
import { I18n, setDefaultI18n } from './i18n-runtime';

/**
 * Words come from the server (GET /api/localization/{locale}/words). No dictionary is in the first
 * load's code (issue 12): a page the server rendered carries the words it shows (SsrState.words,
 * src/main.tsx), and any other page waits for the server's words before it shows (app/app.tsx).
 */
export const i18n = new I18n({ lng: 'en', fallbackLng: 'en', resources: {} });
setDefaultI18n(i18n);

/**
 * The dictionaries the app carries, each loaded only when it is needed: German for a page in German,
 * English only when the server's words do not come (offline), since they are the same words.
 */
const BUNDLED: Record<string, () => Promise<Record<string, string>>> = {
  en: () => import('@atelier/shared/i18n/en').then((m) => m.en),
  de: () => import('@atelier/shared/i18n/de').then((m) => m.de),
};

/** A bundled dictionary; undefined when the app has none for the language or its chunk did not load (offline). */
async function bundled(locale: string): Promise<Record<string, string> | undefined> {
  try {
    return await BUNDLED[locale]?.();
  } catch {
    return undefined;
  }
}

/** A field's name as a schema's message gives it (`password confirmation`), in the page's language when the dictionary has it. */
function fieldLabel(label: string): string {
  return i18n.t(`errors.label.${label.replaceAll(' ', '_')}`, { defaultValue: label });
}

/**
 * A message of the contract in the page's language. A coded message (shared messages.ts: what a
 * schema gives a form, what ApiError.fieldMessage and displayMessage give) is the dictionary's
 * `errors.<key>`, or the catalogue's English while the page has no words for it. Any other text (the
 * server's English for a message without a key, or with one this app does not know) shows as it came.
 */
export function localizeMessage(message: string): string {
  const coded = parseMessage(message);
  if (!coded) return message;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(coded.values)) {
    values[name] = parseMessage(value) ? localizeMessage(value) : name === 'field' ? fieldLabel(value) : value;
  }
  return i18n.t(`errors.${coded.key}`, { ...values, defaultValue: MESSAGES[coded.key] });
}

/** A message the server sent as English with its code: by the code in the page's language, else (no code, or one this app does not know) the English. */
export function localizeCoded(code: string | undefined, english: string): string {
  return code && parseMessage(code) ? localizeMessage(code) : english;
}

/**
 * Switches to the page's language (its `/de` prefix, else the stored one): the bundled dictionary
 * first, then the server's words over it key by key. A language neither knows stays English.
 */
export async function loadServerWords(locale = currentLanguage()): Promise<void> {
  // Undefined for a language the server does not know, or offline.
  const fromServer = payloadOf(contract.GET('/api/localization/{locale}/words', { params: { path: { locale } }, ...quiet })).catch(() => undefined);
  // The server's English is the whole bundled dictionary (it is seeded from it): English needs the
  // bundled copy only when the server does not answer.
  const [own, words] = await Promise.all([locale === 'en' ? undefined : bundled(locale), fromServer]);
  const fallback = locale === 'en' && !words ? await bundled('en') : undefined;
  for (const dict of [own, fallback, words]) if (dict) i18n.addResourceBundle(locale, dict);
  // A language neither knows stays English, whose words this page may not have yet.
  if (locale !== 'en' && !i18n.hasResourceBundle(locale) && !i18n.hasResourceBundle('en')) return loadServerWords('en');
  if (i18n.hasResourceBundle(locale) && i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
}
