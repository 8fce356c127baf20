import {
  Children,
  cloneElement,
  createContext,
  Fragment,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useMemo,
  useSyncExternalStore,
} from 'react';

/**
 * The small part of i18next and react-i18next the app uses, in about 1 KB instead of 20 KB on every
 * first load (issue 12): one flat dictionary per language (keys are never split at dots), `{{name}}`
 * placeholders (inserted as they are: React escapes), `count` picks `key_one` / `key_other` by the
 * language's plural rules, `defaultValue` for a missing key, the fallback language, and `<Trans>`
 * for words with links inside. Components re-render when the language changes, as with react-i18next.
 */
type Dict = Record<string, string>;
export type TOptions = { count?: number; defaultValue?: string; [name: string]: unknown };
export type TFunction = (key: string, options?: TOptions) => string;

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

export class I18n {
  language: string;
  private readonly fallback: string;
  private readonly words: Record<string, Dict> = {};
  private readonly listeners = new Set<() => void>();
  private plurals = new Map<string, Intl.PluralRules>();
  /** Changes with the language, and when words arrive for keys shown missing; what components subscribe to. */
  private version = 0;
  /** Dictionary keys asked for and not found, until words bring them. */
  private missing = new Set<string>();
  /** Told each dictionary key a lookup finds: the server renderer collects the words a page shows. */
  onFound: ((key: string) => void) | null = null;

  constructor({ lng, fallbackLng, resources }: { lng: string; fallbackLng: string; resources: Record<string, Dict> }) {
    this.language = lng;
    this.fallback = fallbackLng;
    for (const [locale, dict] of Object.entries(resources)) this.words[locale] = { ...dict };
  }

  /**
   * Adds words to a language; a key already there is replaced. Components that showed a key these
   * words bring (a page opened with only the words the server rendered it with) render again.
   */
  addResourceBundle(locale: string, words: Dict) {
    this.words[locale] = { ...this.words[locale], ...words };
    const arrived = [...this.missing].filter((key) => words[key] !== undefined);
    for (const key of arrived) this.missing.delete(key);
    if (arrived.length) this.notify();
  }

  hasResourceBundle(locale: string) {
    return locale in this.words;
  }

  async changeLanguage(locale: string) {
    if (locale === this.language) return;
    this.language = locale;
    this.notify();
  }

  private notify() {
    this.version++;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  private plural(locale: string, count: number) {
    let rules = this.plurals.get(locale);
    if (!rules) {
      try {
        rules = new Intl.PluralRules(locale);
      } catch {
        rules = new Intl.PluralRules('en');
      }
      this.plurals.set(locale, rules);
    }
    return rules.select(count);
  }

  private lookup(key: string, count: number | undefined): string | undefined {
    const locales = this.language === this.fallback ? [this.language] : [this.language, this.fallback];
    for (const locale of locales) {
      const dict = this.words[locale];
      if (!dict) continue;
      if (count !== undefined) {
        const variant = this.variants(key, locale, count).find((k) => dict[k] !== undefined);
        if (variant !== undefined) return this.found(dict, variant);
      }
      if (dict[key] !== undefined) return this.found(dict, key);
    }
    this.missing.add(key);
    if (count !== undefined) for (const variant of this.variants(key, this.language, count)) this.missing.add(variant);
    return undefined;
  }

  /** The plural keys a count picks from, first choice first: `key_zero` for 0, then the language's rule. */
  private variants(key: string, locale: string, count: number) {
    const rule = `${key}_${this.plural(locale, count)}`;
    return count === 0 ? [`${key}_zero`, rule] : [rule];
  }

  private found(dict: Dict, key: string) {
    this.onFound?.(key);
    return dict[key];
  }

  t: TFunction = (key, options) => {
    const found = this.lookup(key, options?.count) ?? options?.defaultValue ?? key;
    if (!options || !found.includes('{{')) return found;
    return found.replace(PLACEHOLDER, (_, name: string) => {
      const value = options[name.trim()];
      return value === undefined || value === null ? '' : String(value);
    });
  };
}

const I18nContext = createContext<I18n | null>(null);
let defaultInstance: I18n | null = null;

/** The instance components use when no provider names one (lib/i18n.ts registers the app's). */
export function setDefaultI18n(instance: I18n) {
  defaultInstance = instance;
}

export function I18nextProvider({ i18n, children }: { i18n: I18n; children?: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

function useI18n(): I18n {
  const i18n = useContext(I18nContext) ?? defaultInstance;
  if (!i18n) throw new Error('No i18n instance: wrap the tree in <I18nextProvider>.');
  return i18n;
}

/** `{ t, i18n }`; the component re-renders when the language changes. */
export function useTranslation(): { t: TFunction; i18n: I18n; ready: true } {
  const i18n = useI18n();
  const version = useSyncExternalStore(i18n.subscribe, i18n.getVersion, i18n.getVersion);
  // A new `t` per language, so effects and memos that depend on it run again after a switch.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version is the trigger.
  const t = useMemo<TFunction>(() => (key, options) => i18n.t(key, options), [i18n, version]);
  return { t, i18n, ready: true };
}

const TAG = /<(\w+)>(.*?)<\/\1>/g;

/** Words with elements inside: `<terms>Terms</terms>` becomes `components.terms` holding "Terms". */
export function Trans({ i18nKey, components = {}, values }: { i18nKey: string; components?: Record<string, ReactElement>; values?: TOptions }) {
  const { t } = useTranslation();
  const text = t(i18nKey, values);
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', inner = ''] = match;
    if (match.index > last) parts.push(text.slice(last, match.index));
    const element = components[name];
    parts.push(isValidElement(element) ? cloneElement(element, { key: parts.length }, inner) : whole);
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <Fragment>{Children.toArray(parts)}</Fragment>;
}
