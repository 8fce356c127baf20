import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function Component() {
  const { t } = useTranslation();
  return (
    <div className="home">
      <section className="hero">
        <h1>{t('home.hero_title')}</h1>
        <p>{t('home.hero_text')}</p>
        <Link className="button primary" to="/products">
          {t('home.get_started')}
        </Link>
      </section>
    </div>
  );
}
