import { REPORT_REASONS } from '@atelier/shared';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useTransparency } from '../api/reports';
import './reports.css';

/** The public transparency report (DSA art. 24): per half-year, reports by reason and decision, and the median time to decide. */
export function TransparencyFigures() {
  const { t } = useTranslation();
  const figures = useTransparency();
  return (
    <section className="panel" aria-labelledby="transparency-title">
      <h1 id="transparency-title">{t('reports.transparency_title')}</h1>
      <p>{t('reports.transparency_intro')}</p>
      {figures.isPending && <p>{t('app.loading')}</p>}
      {figures.isError && <p className="error-text">{serverMessageOr(figures.error, t('reports.load_failed'))}</p>}
      {figures.data?.length === 0 && <p className="muted">{t('reports.transparency_empty')}</p>}
      {figures.data?.map((p) => {
        const max = Math.max(1, ...Object.values(p.by_reason));
        return (
          <article key={p.period} data-testid="transparency-period">
            <h2>{p.period}</h2>
            <p>
              {t('reports.transparency_totals', { reports: p.reports, appeals: p.appeals, reversed: p.reversed })}{' '}
              {p.median_hours_to_decide !== null && t('reports.transparency_median', { hours: p.median_hours_to_decide })}
            </p>
            <table className="transparency-table">
              <caption className="visually-hidden">{t('reports.reason')}</caption>
              <tbody>
                {REPORT_REASONS.filter((r) => p.by_reason[r]).map((r) => (
                  <tr key={r}>
                    <th scope="row">{t(`reports.reason_${r}`)}</th>
                    <td>
                      <span className="transparency-bar" style={{ width: `${(p.by_reason[r]! / max) * 12}rem` }} aria-hidden="true" />
                      {p.by_reason[r]}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="small">
              {(['remove', 'restrict', 'no_action'] as const).map((d) => `${t(`reports.decision_${d}`)}: ${p.by_decision[d] ?? 0}`).join(' · ')}
            </p>
          </article>
        );
      })}
    </section>
  );
}
