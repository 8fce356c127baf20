import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings, useStaticPages } from '../../features/site/api/site-data';

export function Footer() {
  const { t } = useTranslation();
  const settings = useSettings();
  const pages = useStaticPages();
  return (
    <footer className="footer">
      <div className="footer-grid">
        <div>
          <Link to="/" className="logo">
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span>Atelier</span>
          </Link>
        </div>
        <nav aria-label="Pages">
          <ul>
            <li>
              <Link to="/">{t('nav.home')}</Link>
            </li>
            <li>
              <Link to="/products">{t('nav.categories')}</Link>
            </li>
            {(pages.data ?? []).map((p) => (
              <li key={p.id}>
                <Link to={`/page/${p.slug}`}>{p.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
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
