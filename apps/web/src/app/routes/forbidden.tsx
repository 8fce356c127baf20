import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <section className="page narrow center">
      <p className="big-code">403</p>
      <h1>{t('pages.forbidden_title')}</h1>
      <p className="muted">{t('pages.forbidden_text')}</p>
      <Link className="button" to="/">
        {t('pages.back_home')}
      </Link>
    </section>
  );
}
