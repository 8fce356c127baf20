import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useFormatMinor, useReconciliation } from '../api/admin-api';

/**
 * The reconciliation tile: green when every journal transaction sums to zero and every cached
 * balance equals its journal; red with the first mismatch otherwise. The server checks afresh on
 * each load; "Check again" asks once more.
 */
export function ReconciliationTile() {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const check = useReconciliation();
  if (check.isPending) return <Spinner />;
  if (check.isError)
    return (
      <p className="error-text" role="alert">
        {check.error.message}
      </p>
    );
  const r = check.data;
  const m = r.first_mismatch;
  return (
    <section className="reconciliation-tile" data-state={r.ok ? 'green' : 'red'} aria-live="polite" aria-labelledby="reco-title">
      <h3 id="reco-title">{t('admin.reco_title')}</h3>
      <p className="reconciliation-verdict">{r.ok ? t('admin.reco_ok') : t('admin.reco_broken')}</p>
      {m && (
        <p role="alert">
          {m.kind === 'transaction'
            ? t('admin.reco_transaction', { id: m.id, sum: formatMinor(m.actual_minor) })
            : m.kind === 'account'
              ? t('admin.reco_account', { id: m.id, cached: formatMinor(m.actual_minor), journal: formatMinor(m.expected_minor) })
              : m.kind === 'generation'
                ? t('admin.reco_generation', { id: m.id, sum: formatMinor(m.actual_minor) })
                : m.kind === 'earnings'
                  ? t('admin.reco_earnings', { id: m.id, cached: formatMinor(m.actual_minor), flowed: formatMinor(m.expected_minor) })
                  : m.kind === 'earnings_lines'
                    ? t('admin.reco_earnings_lines', { id: m.id, balance: formatMinor(m.actual_minor), lines: formatMinor(m.expected_minor) })
                    : m.kind === 'dispute_hold'
                      ? t('admin.reco_dispute_hold', { held: formatMinor(m.actual_minor), open: formatMinor(m.expected_minor) })
                      : m.kind === 'dispute'
                        ? t('admin.reco_dispute', { id: m.id, held: formatMinor(m.actual_minor), amount: formatMinor(m.expected_minor) })
                        : m.kind === 'vat'
                          ? t('tax.reco_vat', { id: m.id, held: formatMinor(m.actual_minor), owed: formatMinor(m.expected_minor) })
                          : t('admin.reco_total', { sum: formatMinor(m.actual_minor) })}
        </p>
      )}
      <p className="small">
        {t('admin.reco_counts', { transactions: r.transactions, accounts: r.accounts })} · {t('admin.reco_checked', { at: formatDateTime(r.checked_at, true) })}
      </p>
      <button type="button" className="button small-button" onClick={() => void check.refetch()} disabled={check.isFetching}>
        {t('admin.check_again')}
      </button>
    </section>
  );
}
