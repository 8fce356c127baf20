import { useState } from 'react';
import { csvUrl, SalesReport, useSellerAnalytics } from '../../features/analytics';
import { useSelectedCurrency } from '../../features/currency';
import { useTranslation } from '../../lib/i18n-runtime';

/** The dashboard's Sales tab: the creator's views, sales and earnings (issue 20). */
export function Component() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const currency = useSelectedCurrency();
  const query = useSellerAnalytics(days);
  return (
    <section className="panel" aria-labelledby="sales-title" data-testid="sales">
      <h2 id="sales-title">{t('sales.title')}</h2>
      {query.isPending ? (
        <p role="status">{t('app.loading')}</p>
      ) : query.isError ? (
        <p role="alert">{t('sales.load_error')}</p>
      ) : (
        <SalesReport
          report={query.data}
          days={days}
          onDays={setDays}
          busy={query.isPlaceholderData}
          csvHref={csvUrl('/api/seller/analytics.csv', days, currency.code)}
        />
      )}
    </section>
  );
}
