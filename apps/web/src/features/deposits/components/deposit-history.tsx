import { DEPOSIT_EXPIRY_MINUTES } from '@atelier/shared/constants';
import { EmptyState, LoadFailed, SkeletonRows } from '../../../components/ui/load-states';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useDepositHistory } from '../api/deposits';
import './deposits.css';

/** The user's deposits, newest first (GET /api/deposit/history), with loading, empty and error states. */
export function DepositHistory() {
  const { t } = useTranslation();
  const history = useDepositHistory();

  let body: React.ReactNode;
  if (history.isPending) body = <SkeletonRows />;
  else if (history.isError) body = <LoadFailed message={t('deposit.history_failed')} onRetry={() => history.refetch()} />;
  else if (!history.data.length) body = <EmptyState title={t('deposit.history_empty')} />;
  else
    body = (
      <Table className="deposit-table" columns={[t('deposit.date'), t('deposit.amount'), t('deposit.method'), t('deposit.status_label')]}>
        {history.data.map((d) => (
          <tr key={d.id} data-testid="deposit-row">
            <td>{formatDateTime(d.created_at)}</td>
            <td className="amount">
              <Price amount={d.amount} currency={{ code: d.currency, symbol: d.currencySymbol }} />
            </td>
            <td>{d.payment_method_title}</td>
            <td>
              {/* Issue 31: statuses as words ("Successful"); a card checkout left open is over after 30 minutes, even before the server's job has marked it. */}
              {d.status === 'processing' && Date.now() / 1000 - d.created_at > DEPOSIT_EXPIRY_MINUTES * 60 ? (
                <span className="deposit-status" data-status="failed">
                  {t('deposit.status_expired')}
                </span>
              ) : (
                <span className="deposit-status" data-status={d.status}>
                  {t(`deposit.state_${d.status}`)}
                </span>
              )}
            </td>
          </tr>
        ))}
      </Table>
    );

  return (
    <section aria-labelledby="deposits-title">
      <div className="deposits-head">
        {/* The dashboard's tab already names the screen: the heading is for screen readers only. */}
        <h2 id="deposits-title" className="visually-hidden">
          {t('deposit.history_title')}
        </h2>
      </div>
      {body}
    </section>
  );
}
