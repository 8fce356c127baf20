import type { Category } from '@atelier/shared';
import { typeFromCategoryUrl } from '@atelier/shared/constants';
import { Link } from 'react-router';
import { LogoMark, MailIcon, MastercardIcon, SecureIcon, VisaIcon } from '../../components/ui/icons';
import { useCategories } from '../../features/catalog';
import { openCookieSettings } from '../../features/cookie-consent';
import { staticPageTitle, useSettings, useSocialLinks, useStaticPages } from '../../features/site';
import { useTranslation } from '../../lib/i18n-runtime';
import { LanguageSelect } from './language-select';

const NETWORKS: Record<string, string> = {
  'instagram.com': 'Instagram',
  'facebook.com': 'Facebook',
  'x.com': 'X',
  'twitter.com': 'X',
  'youtube.com': 'YouTube',
  'linkedin.com': 'LinkedIn',
  'pinterest.com': 'Pinterest',
  'behance.net': 'Behance',
  'dribbble.com': 'Dribbble',
  'tiktok.com': 'TikTok',
  'github.com': 'GitHub',
  'threads.net': 'Threads',
  'mastodon.social': 'Mastodon',
};

/** The network a social link leads to, by name ("Instagram"), else its host ("example.org"); null for a broken URL. */
export function socialNetworkName(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^(www|m)\./, '');
  } catch {
    return null;
  }
  const known = Object.keys(NETWORKS).find((k) => host === k || host.endsWith(`.${k}`));
  return known ? NETWORKS[known]! : host;
}

/** SPEC §2: one link per top-level category, typed by the first url segment; 'image' categories read ARTS. */
export function footerCategoryLinks(categories: readonly Category[], arts: string) {
  return categories
    .filter((c) => c.parent_id === null)
    .map((c) => {
      const type = typeFromCategoryUrl(c.url);
      return {
        id: c.id,
        label: c.url.includes('image') ? arts : c.title,
        to: type ? `/products?type=${type}` : `/products?category=${c.id}`,
      };
    });
}

export function Footer() {
  const { t, i18n } = useTranslation();
  const settings = useSettings();
  const pages = useStaticPages();
  const social = useSocialLinks();
  const categories = useCategories();
  const links = footerCategoryLinks(categories.data ?? [], t('nav.arts'));
  const support = settings.data?.support_email;

  return (
    <footer className="footer">
      <div className="footer-grid">
        <div className="footer-brand">
          <Link to="/" className="logo" aria-label={`Atelier, ${t('nav.home')}`}>
            <LogoMark />
            <span>Atelier</span>
          </Link>
          <p className="footer-tagline">{t('home.hero_text')}</p>
          <ul className="payment-icons" aria-label={t('footer.payment_methods')}>
            <li>
              <MastercardIcon />
            </li>
            <li>
              <VisaIcon />
            </li>
            <li>
              <SecureIcon />
            </li>
          </ul>
        </div>
        <nav aria-label={t('footer.shop')} className="footer-col">
          <h2>{t('footer.shop')}</h2>
          <ul>
            <li>
              <Link to="/">{t('nav.home')}</Link>
            </li>
            <li>
              <Link to="/products">{t('nav.categories')}</Link>
            </li>
            {links.map((l) => (
              <li key={l.id}>
                <Link to={l.to} data-testid="footer-category">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t('footer.company')} className="footer-col">
          <h2>{t('footer.company')}</h2>
          <ul>
            <li>
              <Link to="/dashboard">{t('nav.sell')}</Link>
            </li>
            <li>
              <Link to="/contact">{t('nav.contact_us')}</Link>
            </li>
            <li>
              <Link to="/transparency">{t('footer.transparency')}</Link>
            </li>
            {(pages.data ?? []).map((p) => (
              <li key={p.id}>
                <Link to={`/page/${p.slug}`}>{staticPageTitle(t, i18n.language, p)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="footer-col">
          <h2>{t('footer.support')}</h2>
          {support && (
            <a className="footer-mail" href={`mailto:${support}`}>
              <MailIcon /> {support}
            </a>
          )}
          {social.data && social.data.length > 0 && (
            <>
              <h2 className="footer-follow">{t('footer.follow_us')}</h2>
              <ul className="social-icons">
                {social.data.map((s) => (
                  <li key={s.id}>
                    <a
                      href={s.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t('footer.social_link', { network: socialNetworkName(s.url) ?? s.url })}
                      title={socialNetworkName(s.url) ?? undefined}
                    >
                      <img
                        src={s.image.startsWith('/') || s.image.startsWith('http') ? s.image : `/storage/${s.image}`}
                        alt=""
                        width="36"
                        height="36"
                        loading="lazy"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </div>
      <div className="footer-prefs">
        <LanguageSelect />
        <button type="button" className="link-button footer-cookies" onClick={openCookieSettings}>
          {t('cookie.settings_link')}
        </button>
      </div>
      {settings.data && (
        <div className="footer-legal">
          <p>{settings.data.requisites}</p>
          <p>{settings.data.copyright}</p>
        </div>
      )}
    </footer>
  );
}
