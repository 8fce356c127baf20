import { LOCALES, type Locale, splitLocale } from '@atelier/shared/i18n/locales';
import { useId } from 'react';
import { currentLanguage } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-runtime';
import { useIsClient } from '../../lib/ssr-env';

/** Each language named in itself, so a visitor who cannot read the page still finds their own. */
const NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/** The address of this page in `locale`: German under /de, English without a prefix. */
export function addressIn(locale: Locale, location: { pathname: string; search: string; hash: string }): string {
  const { path } = splitLocale(location.pathname);
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return `${prefix}${path === '/' && prefix ? '' : path}${location.search}${location.hash}`;
}

/**
 * The language switcher of the header and the footer (issue 18): the same page in the other
 * language. The choice is kept for pages without a prefix, and the page loads again in it.
 */
export function LanguageSelect({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const interactive = useIsClient();
  const current = (interactive ? currentLanguage() : 'en') as Locale;
  return (
    <div className={`currency-select language-select ${className}`}>
      <label htmlFor={id} className="visually-hidden">
        {t('nav.language')}
      </label>
      <select
        id={id}
        value={LOCALES.includes(current) ? current : 'en'}
        disabled={!interactive}
        data-testid="language-select"
        onChange={(e) => {
          const locale = e.target.value as Locale;
          localStorage.setItem('language', locale);
          window.location.assign(addressIn(locale, window.location));
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
