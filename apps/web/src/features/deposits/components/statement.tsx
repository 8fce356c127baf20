import type { StatementKind, StatementLine } from '@atelier/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, LoadFailed, SkeletonRows } from '../../../components/ui/load-states';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format-date';
import { localizeCoded } from '../../../lib/i18n';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useSelectedCurrency } from '../../currency';
import { statementCsvUrl, useStatement } from '../api/statement';
import './deposits.css';

/** What a movement was, in the page's language (by its key; a line without one shows the server's English). */
const describe = (l: StatementLine) => localizeCoded(l.description_code, l.description);

const KIND_KEY: Record<StatementKind, string> = {
  deposit: 'statement.kind_deposit',
  purchase: 'statement.kind_purchase',
  unlock: 'statement.kind_unlock',
  generation: 'statement.kind_generation',
  refund: 'statement.kind_refund',
  sale: 'statement.kind_sale',
  earnings_release: 'statement.kind_earnings_release',
  withdrawal: 'statement.kind_withdrawal',
  adjustment: 'statement.kind_adjustment',
};

/**
 * The dashboard's Statement tab (issue 18): every movement of the balance, newest first, with the
 * running balance, in the ledger's EUR and, when another currency is chosen, that currency as a hint.
 */
export function Statement() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const currency = useSelectedCurrency();
  const statement = useStatement(page);

  let body: React.ReactNode;
  if (statement.isPending) body = <SkeletonRows />;
  else if (statement.isError) body = <LoadFailed message={t('statement.failed')} onRetry={() => statement.refetch()} />;
  else if (!statement.data.payload.length) body = <EmptyState title={t('statement.empty')} />;
  else {
    const { payload, meta } = statement.data;
    body = (
      <>
        <Table className="deposit-table statement-table" columns={[t('deposit.date'), t('statement.what'), t('deposit.amount'), t('statement.balance_after')]}>
          {payload.map((l) => (
            <tr key={l.id} data-testid="statement-row" data-kind={l.kind}>
              <td>{formatDateTime(l.created_at)}</td>
              <td>
                <strong>{t(KIND_KEY[l.kind])}</strong>
                <br />
                {l.link ? <Link to={l.link}>{describe(l)}</Link> : <span>{describe(l)}</span>}
              </td>
              <td className="amount" data-sign={l.amount_minor < 0 ? 'out' : 'in'}>
                {l.amount_minor > 0 ? '+' : ''}
                <Price amount={l.amount} currency="EUR" />
                {l.display.currency !== 'EUR' && (
                  <small className="muted">
                    {' '}
                    (≈ <Price amount={l.display.amount} currency={{ code: l.display.currency, symbol: l.display.currencySymbol }} />)
                  </small>
                )}
              </td>
              <td className="amount">
                <Price amount={l.balance_after} currency="EUR" />
              </td>
            </tr>
          ))}
        </Table>
        {meta.pages > 1 && (
          <nav className="pager" aria-label={t('statement.pages')}>
            <button type="button" className="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              {t('statement.newer')}
            </button>
            <span>{t('statement.page_of', { page: meta.page, pages: meta.pages })}</span>
            <button type="button" className="button" disabled={page >= meta.pages} onClick={() => setPage((p) => p + 1)}>
              {t('statement.older')}
            </button>
          </nav>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="statement-title">
      <div className="deposits-head">
        <h2 id="statement-title" className="visually-hidden">
          {t('dashboard.statement')}
        </h2>
        <a className="button" href={statementCsvUrl(currency.code)} download>
          {t('statement.download_csv')}
        </a>
      </div>
      {body}
    </section>
  );
}
