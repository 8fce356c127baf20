import { type FormEvent, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { formatMinor, type JournalFilters, useAdjustment, useJournal, useLedgerAccounts, useReceivables } from '../api/admin-api';
import { ActionError } from './action-error';
import { ReconciliationTile } from './reconciliation-tile';

/** Money: the reconciliation tile, every ledger account with its balance, the journal with filters, manual adjustments. */
export function Money() {
  const { t } = useTranslation();
  return (
    <section className="admin-section" aria-labelledby="money-title">
      <h2 id="money-title">{t('admin.money_title')}</h2>
      <div className="money-top">
        <ReconciliationTile />
        <Adjustment />
      </div>
      <Receivables />
      <Accounts />
      <Journal />
    </section>
  );
}

/** Creators who owe refunds of money they had already withdrawn: their sales pay it back first. */
function Receivables() {
  const { t } = useTranslation();
  const receivables = useReceivables();
  return (
    <details className="admin-details" open>
      <summary>
        <h3>{t('admin.receivables_title')}</h3>
      </summary>
      {receivables.isPending ? (
        <Spinner />
      ) : receivables.isError ? (
        <p className="error-text">{receivables.error.message}</p>
      ) : receivables.data.length === 0 ? (
        <p className="muted">{t('admin.receivables_empty')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label={t('admin.receivables_title')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.creator')}</th>
                <th scope="col">{t('admin.email')}</th>
                <th scope="col">{t('admin.owed')}</th>
              </tr>
            </thead>
            <tbody>
              {receivables.data.map((r) => (
                <tr key={r.user_id} data-testid="receivable">
                  <td>@{r.nickname}</td>
                  <td>{r.email}</td>
                  <td>
                    {r.amount.amount.toFixed(2)} {r.amount.currencySymbol}
                    <div className="muted small">{formatMinor(r.amount.amount_minor)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function accountName(a: { code: string | null; user: { nickname: string } | null; id: number }) {
  return a.code ?? (a.user ? `@${a.user.nickname}` : `#${a.id}`);
}

function Accounts() {
  const { t } = useTranslation();
  const accounts = useLedgerAccounts();
  return (
    <details className="admin-details" open>
      <summary>
        <h3>{t('admin.accounts_title')}</h3>
      </summary>
      {accounts.isPending ? (
        <Spinner />
      ) : accounts.isError ? (
        <p className="error-text">{accounts.error.message}</p>
      ) : accounts.data.length === 0 ? (
        <p className="muted">{t('admin.accounts_empty')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('admin.account')}</th>
                <th scope="col">{t('admin.kind')}</th>
                <th scope="col" className="num">
                  {t('admin.balance')}
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.id}</td>
                  <td>
                    {accountName(a)} {a.user && <span className="muted small">{a.user.email}</span>}
                  </td>
                  <td>{a.kind}</td>
                  <td className="num">{formatMinor(a.balance_minor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function Journal() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<JournalFilters>({});
  const [filters, setFilters] = useState<JournalFilters>({});
  const journal = useJournal(filters);
  const field = (key: keyof JournalFilters, label: string, type = 'text') => (
    <label>
      {label}
      <input type={type} value={draft[key] ?? ''} onChange={(e) => setDraft({ ...draft, [key]: e.target.value || undefined })} />
    </label>
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  return (
    <div className="admin-block">
      <h3>{t('admin.journal_title')}</h3>
      <form className="admin-form-row" onSubmit={onSubmit} aria-label={t('admin.journal_filters')}>
        {field('account_id', t('admin.account_id'), 'number')}
        {field('user_id', t('admin.user_id'), 'number')}
        {field('reason', t('admin.reason'))}
        {field('from', t('admin.from'), 'date')}
        {field('to', t('admin.to'), 'date')}
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </form>
      {journal.isPending ? (
        <Spinner />
      ) : journal.isError ? (
        <p className="error-text" role="alert">
          {journal.error.message}
        </p>
      ) : journal.data.length === 0 ? (
        <p className="muted">{t('admin.journal_empty')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('admin.date')}</th>
                <th scope="col">{t('admin.reason')}</th>
                <th scope="col">{t('admin.entries')}</th>
              </tr>
            </thead>
            <tbody>
              {journal.data.map((tx) => (
                <tr key={tx.id}>
                  <td>{tx.id}</td>
                  <td>{formatDateTime(tx.created_at, true)}</td>
                  <td>{tx.reason}</td>
                  <td>
                    <ul className="admin-entries">
                      {tx.entries.map((e) => (
                        <li key={`${tx.id}-${e.account_id}`} data-sign={e.amount_minor < 0 ? 'minus' : 'plus'}>
                          {e.account}: {formatMinor(e.amount_minor)}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Adjustment() {
  const { t } = useTranslation();
  const toast = useToast();
  const adjust = useAdjustment();
  const [accountId, setAccountId] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    adjust.mutate(
      { account_id: Number(accountId), amount: Number(amount.replace(',', '.')), reason },
      {
        onSuccess: () => {
          toast.success(t('admin.adjusted'));
          setAmount('');
          setReason('');
        },
      },
    );
  };
  return (
    <form className="admin-form" onSubmit={onSubmit} aria-label={t('admin.adjust_title')}>
      <h3>{t('admin.adjust_title')}</h3>
      <p className="muted small">{t('admin.adjust_hint')}</p>
      <div className="admin-form-row">
        <label>
          {t('admin.account_id')}
          <input type="number" min="1" value={accountId} onChange={(e) => setAccountId(e.target.value)} required />
        </label>
        <label>
          {t('admin.amount_eur')}
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} required />
        </label>
      </div>
      <label className="admin-form-full">
        {t('admin.reason')}
        <input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
      </label>
      <div className="admin-form-actions">
        <button type="submit" className="button primary" disabled={adjust.isPending}>
          {t('admin.book_adjustment')}
        </button>
      </div>
      <ActionError error={adjust.error} />
    </form>
  );
}
