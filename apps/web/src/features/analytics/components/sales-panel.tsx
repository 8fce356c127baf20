import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSelectedCurrency } from '../../currency';
import { type AnalyticsScope, csvUrl, useAnalytics } from '../api/analytics';
import { SalesReport } from './sales-report';

/** What tells the two panels apart: their heading and the test id the pages and e2e tests find them by. */
const panels = {
  seller: { title: 'sales.title', id: 'sales' },
  platform: { title: 'sales.platform_title', id: 'platform-sales' },
} as const;

/**
 * The dashboard's Sales tab (`seller`) and the back office's analytics (`platform`, every sale and
 * the commission it earned): the report of the last 30 days, or the preset chosen (issue 20).
 */
export function SalesPanel({ scope }: { scope: AnalyticsScope }) {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const currency = useSelectedCurrency();
  const query = useAnalytics(scope, days);
  const { title, id } = panels[scope];
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{t(title)}</h2>
      {query.isPending ? (
        <p role="status">{t('app.loading')}</p>
      ) : query.isError ? (
        <p role="alert">{t('sales.load_error')}</p>
      ) : (
        <SalesReport report={query.data} days={days} onDays={setDays} busy={query.isPlaceholderData} csvHref={csvUrl(scope, days, currency.code)} />
      )}
    </section>
  );
}
