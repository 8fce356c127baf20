import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';
import { usePageTitle } from '../../lib/page-title';

/** The not-found page; `title` names what is missing (a profile), as the server's 404 page does (issue 18 bug 9). */
export function Component({ title }: { title?: string } = {}) {
  const { t } = useTranslation();
  const heading = title ?? t('pages.not_found_title');
  usePageTitle(heading);
  return (
    <section className="page narrow center" data-testid="not-found">
      <p className="big-code">404</p>
      <h1>{heading}</h1>
      <p className="muted">{t('pages.not_found_text')}</p>
      <Link className="button" to="/">
        {t('pages.back_home')}
      </Link>
    </section>
  );
}
