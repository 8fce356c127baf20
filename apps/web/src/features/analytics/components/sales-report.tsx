import { ANALYTICS_PRESETS, type PlatformAnalytics, type SellerAnalytics } from '@atelier/shared';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { SalesChart } from './sales-chart';
import './analytics.css';

type Report = SellerAnalytics | PlatformAnalytics;

/**
 * The Sales tab's body (and the back office's, platform-wide): the totals, the chart of views and
 * sales per day with its 7/30/90-day presets, the works table and the CSV of the same range.
 */
export function SalesReport({
  report,
  days,
  onDays,
  csvHref,
  busy,
}: {
  report: Report;
  days: number;
  onDays: (days: number) => void;
  csvHref: string;
  busy?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const format = useMoney().format;
  const money = (amount: number) => format(amount, report.currency);
  const count = (n: number) => n.toLocaleString(language);
  const commission = 'commission' in report.totals ? report.totals.commission : null;
  const empty = report.totals.views === 0 && report.totals.sales === 0;
  return (
    <div className="sales-report" aria-busy={busy || undefined}>
      <div className="sales-toolbar">
        <div className="sales-presets" role="group" aria-label={t('sales.range')}>
          {ANALYTICS_PRESETS.map((n) => (
            <button key={n} type="button" className={n === days ? 'button primary' : 'button'} aria-pressed={n === days} onClick={() => onDays(n)}>
              {t('sales.last_days', { days: n })}
            </button>
          ))}
        </div>
        <a className="button" href={csvHref} download>
          {t('sales.export')}
        </a>
      </div>
      <dl className="sales-totals">
        <div>
          <dt>{t('sales.views')}</dt>
          <dd data-testid="total-views">{count(report.totals.views)}</dd>
        </div>
        <div>
          <dt>{t('sales.sales')}</dt>
          <dd data-testid="total-sales">{count(report.totals.sales)}</dd>
        </div>
        <div>
          <dt>{t('sales.revenue')}</dt>
          <dd data-testid="total-revenue">{money(report.totals.revenue)}</dd>
        </div>
        {commission !== null && (
          <div>
            <dt>{t('sales.commission')}</dt>
            <dd data-testid="total-commission">{money(commission)}</dd>
          </div>
        )}
        <div>
          <dt>{t('sales.conversion')}</dt>
          <dd>{(report.totals.conversion * 100).toLocaleString(language, { maximumFractionDigits: 2 })} %</dd>
        </div>
      </dl>
      {empty && <p className="muted">{t('sales.empty')}</p>}
      <SalesChart days={report.days} />
      <div className="sales-table-wrap">
        <table className="sales-table">
          <caption>{t('sales.products')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sales.work')}</th>
              {'author' in (report.products[0] ?? {}) && <th scope="col">{t('sales.author')}</th>}
              <th scope="col">{t('sales.views')}</th>
              <th scope="col">{t('sales.sales')}</th>
              <th scope="col">{t('sales.revenue')}</th>
            </tr>
          </thead>
          <tbody>
            {report.products.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.title}</th>
                {'author' in p && <td>@{p.author}</td>}
                <td>{count(p.views)}</td>
                <td>{count(p.sales)}</td>
                <td>{money(p.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
