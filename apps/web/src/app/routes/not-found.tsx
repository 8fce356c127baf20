import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <section className="page narrow center" data-testid="not-found">
      <p className="big-code">404</p>
      <h1>{t('pages.not_found_title')}</h1>
      <p className="muted">{t('pages.not_found_text')}</p>
      <Link className="button" to="/">
        {t('pages.back_home')}
      </Link>
    </section>
  );
}
