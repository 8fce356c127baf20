import { Link } from 'react-router';
import { useSettings } from '../../features/site';
import { useTranslation } from '../../lib/i18n-runtime';

/** The screen a blocked user sees next (issue 18 bug 3): what happened and how to reach support. */
export function Component() {
  const { t } = useTranslation();
  const support = useSettings().data?.support_email;
  return (
    <section className="page narrow center" data-testid="account-blocked">
      <h1>{t('pages.account_blocked_title')}</h1>
      <p className="muted">{t('pages.account_blocked_text')}</p>
      <p>{support ? t('pages.account_blocked_support', { email: support }) : t('pages.account_blocked_support_form')}</p>
      <p>
        {support && (
          <>
            <a className="button" href={`mailto:${support}`}>
              {support}
            </a>{' '}
          </>
        )}
        <Link className="button primary" to="/contact">
          {t('pages.account_blocked_contact')}
        </Link>
      </p>
    </section>
  );
}
