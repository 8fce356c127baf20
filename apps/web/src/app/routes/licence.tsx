import { LICENCE_TERMS, LICENCE_TIERS, type LicenceTier } from '@atelier/shared/licences';
import { Link, useParams } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';
import { usePageTitle } from '../../lib/page-title';
import { Component as NotFound } from './not-found';

const isTier = (value: string | undefined): value is LicenceTier => LICENCE_TIERS.includes(value as LicenceTier);

/**
 * Issue 34: what a licence tier permits, as plain text a buyer reads before buying. The terms are the
 * ones LICENCE.txt carries (packages/shared/src/licences.ts), so the page and the file never differ.
 */
export function Component() {
  const { tier } = useParams();
  const { t } = useTranslation();
  const title = isTier(tier) ? t(`licences.${tier}`) : undefined;
  usePageTitle(title);
  if (!isTier(tier)) return <NotFound />;
  const terms = LICENCE_TERMS[tier];
  return (
    <article className="page narrow legal" data-testid="licence-page">
      <h1>{title}</h1>
      <p className="lead">{t(`licences.${tier}_summary`)}</p>
      <div className="prose" lang="en">
        <h2>{t('licences.you_may')}</h2>
        <ul>
          {terms.permits.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <h2>{t('licences.you_may_not')}</h2>
        <ul>
          {terms.forbids.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <p className="muted small">{t('licences.binding_english')}</p>
      <h2>{t('licences.other')}</h2>
      <ul>
        {LICENCE_TIERS.filter((other) => other !== tier).map((other) => (
          <li key={other}>
            <Link to={`/licences/${other}`}>{t(`licences.${other}`)}</Link>
          </li>
        ))}
      </ul>
    </article>
  );
}
