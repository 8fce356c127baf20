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

/** The German of the contract's English messages (field errors, the server's answers), once a German page loaded it. */
let germanMessages: ((message: string) => string | undefined) | null = null;

/** A message of the contract (English: the schemas' and the server's) in the page's language when it is known, else as it came. */
export function localizeMessage(message: string): string {
  return i18n.language === 'de' ? (germanMessages?.(message) ?? message) : message;
}

async function loadGermanMessages() {
  try {
    germanMessages ??= (await import('@atelier/shared/i18n/messages-de')).messageInGerman;
  } catch {
    // Offline: the messages stay as they came.
  }
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
  const [own, words] = await Promise.all([locale === 'en' ? undefined : bundled(locale), fromServer, locale === 'de' ? loadGermanMessages() : undefined]);
  const fallback = locale === 'en' && !words ? await bundled('en') : undefined;
  for (const dict of [own, fallback, words]) if (dict) i18n.addResourceBundle(locale, dict);
  // A language neither knows stays English, whose words this page may not have yet.
  if (locale !== 'en' && !i18n.hasResourceBundle(locale) && !i18n.hasResourceBundle('en')) return loadServerWords('en');
  if (i18n.hasResourceBundle(locale) && i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
}
