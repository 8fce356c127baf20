import { useState } from 'react';
import { csvUrl, SalesReport, usePlatformAnalytics } from '../../features/analytics';
import { useSelectedCurrency } from '../../features/currency';
import { useTranslation } from '../../lib/i18n-runtime';

/** The back office's analytics: every sale on the platform and the commission it earned (issue 20). */
export function Component() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const currency = useSelectedCurrency();
  const query = usePlatformAnalytics(days);
  return (
    <section className="panel" aria-labelledby="platform-sales-title" data-testid="platform-sales">
      <h2 id="platform-sales-title">{t('sales.platform_title')}</h2>
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
          csvHref={csvUrl('/api/admin/analytics.csv', days, currency.code)}
        />
      )}
    </section>
  );
}
