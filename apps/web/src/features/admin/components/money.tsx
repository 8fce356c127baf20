import type { Balance } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { AdminBlock } from '../../../components/ui/admin-section';
import { FilterSelect } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import {
  type JournalFilters,
  useAdjustment,
  useAdminDisputes,
  useAdminReceivables,
  useFlaggedDeposits,
  useFormatMinor,
  useJournal,
  useLedgerAccounts,
} from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows, AdminTable } from './admin-table';
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
      <Disputes />
      <FlaggedDeposits />
      <Receivables />
      <Accounts />
      <Journal />
    </section>
  );
}

/** An amount in the visitor's currency, with the ledger's EUR cents underneath (what the books hold). */
function MoneyCell({ amount }: { amount: Balance }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <td className="num">
      <span>{money.format(amount.amount, { code: amount.currency, symbol: amount.currencySymbol })}</span>
      <br />
      <span className="muted small">{t('admin.eur_minor', { minor: amount.amount_minor })}</span>
    </td>
  );
}

const DISPUTE_STATUSES = ['', 'open', 'won', 'lost'] as const;

/** Card payments disputed by the card holder (chargebacks): what is held, and where it came from. */
function Disputes() {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const [status, setStatus] = useState<(typeof DISPUTE_STATUSES)[number]>('open');
  const disputes = useAdminDisputes(status);
  return (
    <AdminBlock title={t('admin.disputes_title')} titleId="disputes-title">
      <FilterSelect
        label={t('admin.status')}
        value={status}
        onChange={setStatus}
        options={DISPUTE_STATUSES}
        optionLabel={(s) => (s ? t(`admin.dispute_${s}`) : t('admin.all'))}
      />
      <AdminRows query={disputes} empty={t('admin.disputes_empty')}>
        {(rows) => (
          <AdminTable
            labelledBy="disputes-title"
            columns={[
              '#',
              t('admin.date'),
              t('admin.dispute_user'),
              t('admin.dispute_payment'),
              t('admin.status'),
              { label: t('admin.amount'), num: true },
              { label: t('admin.dispute_owed'), num: true },
            ]}
          >
            {rows.map((d) => (
              <tr key={d.id}>
                <td>{d.id}</td>
                <td>{formatDateTime(d.created_at, true)}</td>
                <td>
                  @{d.user.nickname} <span className="muted small">{d.user.email}</span>
                </td>
                <td>
                  #{d.deposit_id} <span className="muted small">{d.provider_dispute_id}</span>
                </td>
                <td>
                  <span className="admin-status" data-status={d.status === 'lost' ? 'failed' : d.status === 'won' ? 'paid' : 'processing'}>
                    {t(`admin.dispute_${d.status}`)}
                  </span>
                  {d.reason && <span className="muted small"> {d.reason}</span>}
                </td>
                <MoneyCell amount={d.amount} />
                <td className="num">{formatMinor(d.from_receivable_minor)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </AdminBlock>
  );
}

/** Deposits a payment event did not match (amount or currency): nothing was credited; staff look at each. */
function FlaggedDeposits() {
  const { t } = useTranslation();
  const flagged = useFlaggedDeposits();
  return (
    <AdminBlock title={t('admin.flagged_deposits_title')} titleId="flagged-deposits-title">
      <AdminRows query={flagged} empty={t('admin.flagged_deposits_empty')}>
        {(rows) => (
          <AdminTable labelledBy="flagged-deposits-title" columns={['#', t('admin.dispute_user'), t('admin.status'), t('admin.reason'), t('admin.date')]}>
            {rows.map((d) => (
              <tr key={d.id} data-testid="flagged-deposit">
                <td>
                  {d.id} <span className="muted small">{d.provider}</span>
                </td>
                <td>
                  @{d.user.nickname} <span className="muted small">{d.user.email}</span>
                </td>
                <td>{d.status}</td>
                <td>{d.reason}</td>
                <td>{formatDateTime(d.flagged_at)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </AdminBlock>
  );
}

/** Receivables that are not zero: below zero, the user owes it (a refund after a payout, a chargeback of spent money). */
function Receivables() {
  const { t } = useTranslation();
  const receivables = useAdminReceivables();
  return (
    <AdminBlock title={t('admin.receivables_title')} titleId="receivables-title">
      <AdminRows query={receivables} empty={t('admin.receivables_empty')}>
        {(rows) => (
          <AdminTable labelledBy="receivables-title" columns={[t('admin.account_id'), t('admin.dispute_user'), { label: t('admin.balance'), num: true }]}>
            {rows.map((r) => (
              <tr key={r.account_id} data-testid="receivable">
                <td>{r.account_id}</td>
                <td>
                  @{r.user.nickname} <span className="muted small">{r.user.email}</span>
                </td>
                <MoneyCell amount={r.amount} />
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </AdminBlock>
  );
}

function accountName(a: { code: string | null; user: { nickname: string } | null; id: number }) {
  return a.code ?? (a.user ? `@${a.user.nickname}` : `#${a.id}`);
}

function Accounts() {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const accounts = useLedgerAccounts();
  return (
    <details className="admin-details" open>
      <summary>
        <h3>{t('admin.accounts_title')}</h3>
      </summary>
      <AdminRows query={accounts} empty={t('admin.accounts_empty')}>
        {(rows) => (
          <AdminTable columns={['#', t('admin.account'), t('admin.kind'), { label: t('admin.balance'), num: true }]}>
            {rows.map((a) => (
              <tr key={a.id}>
                <td>{a.id}</td>
                <td>
                  {accountName(a)} {a.user && <span className="muted small">{a.user.email}</span>}
                </td>
                <td>{a.kind}</td>
                <td className="num">{formatMinor(a.balance_minor)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </details>
  );
}

function Journal() {
  const formatMinor = useFormatMinor();
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
    <AdminBlock title={t('admin.journal_title')}>
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
      <AdminRows query={journal} empty={t('admin.journal_empty')}>
        {(rows) => (
          <AdminTable columns={['#', t('admin.date'), t('admin.reason'), t('admin.entries')]}>
            {rows.map((tx) => (
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
          </AdminTable>
        )}
      </AdminRows>
    </AdminBlock>
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
