import { PAYOUT_STATUSES, type Payout } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useAdminPayouts, useReconcilePayout, useSettlePayout } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows, AdminTable } from './admin-table';

/** Payouts by status with masked details only; a payout staff pay is marked paid (with the transfer's reference) or failed; SEPA transfers export as pain.001. */
export function PayoutsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string>('processing');
  const payouts = useAdminPayouts(status);
  return (
    <AdminSection
      id="payouts"
      title={t('admin.payouts_title')}
      tools={<StatusFilter value={status} onChange={setStatus} options={PAYOUT_STATUSES} optionLabel={(s) => t(`admin.payout_status_${s}`)} all="last" />}
    >
      <SepaExport />
      <AdminRows query={payouts} empty={t('admin.payouts_empty')}>
        {(rows) => (
          <AdminTable
            columns={[
              '#',
              t('admin.offer'),
              t('admin.method'),
              t('admin.destination'),
              t('admin.amount'),
              t('admin.status'),
              t('admin.date'),
              t('admin.actions'),
            ]}
          >
            {rows.map((p) => (
              <PayoutRow key={p.id} payout={p} />
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </AdminSection>
  );
}

/**
 * A processing payout staff may end (no provider is sending it): 'Mark paid' asks for the bank
 * transfer's reference, 'Mark failed' for a reason. One a provider is sending shows who sends it.
 */
function PayoutRow({ payout }: { payout: Payout }) {
  const money = useMoney();
  const { t } = useTranslation();
  const toast = useToast();
  const settle = useSettlePayout();
  const reconcile = useReconcilePayout();
  const open = payout.status === 'processing' || payout.status === 'needs_review';
  const [asking, setAsking] = useState<'paid' | 'failed' | null>(null);
  const [reason, setReason] = useState('');
  const [reference, setReference] = useState('');
  const onPaid = (e: FormEvent) => {
    e.preventDefault();
    settle.mutate({ id: payout.id, outcome: 'paid', reference: reference.trim() }, { onSuccess: () => toast.success(t('admin.payout_paid_done')) });
  };
  const onFail = (e: FormEvent) => {
    e.preventDefault();
    settle.mutate({ id: payout.id, outcome: 'failed', reason }, { onSuccess: () => toast.success(t('admin.payout_failed_done')) });
  };
  return (
    <tr>
      <td>{payout.id}</td>
      <td>{payout.offer_id}</td>
      <td>{payout.method === 'sepa' ? 'SEPA' : t('admin.card')}</td>
      <td>{payout.destination}</td>
      <td>{money.format(payout.amount, payout.currency)}</td>
      <td>
        <span className="admin-status" data-status={payout.status}>
          {t(`admin.payout_status_${payout.status}`)}
        </span>
        {payout.failure_reason && <div className="muted small">{payout.failure_reason}</div>}
        {payout.transfer_reference && <div className="muted small">{t('admin.payout_reference', { reference: payout.transfer_reference })}</div>}
        {payout.status === 'needs_review' && payout.provider_state && (
          <div className="muted small" data-provider-state={payout.provider_state}>
            {t(`admin.payout_provider_state_${payout.provider_state}`)}
          </div>
        )}
      </td>
      <td>{formatDateTime(payout.created_at)}</td>
      <td>
        {payout.status === 'processing' && !payout.awaits_staff && (
          <span className="muted small">{t('admin.payout_sending', { provider: payout.provider })}</span>
        )}
        {open && payout.awaits_staff && (
          <div className="admin-inline-actions">
            {payout.status === 'needs_review' && (
              <button
                type="button"
                className="button small-button"
                disabled={reconcile.isPending}
                onClick={() => reconcile.mutate(payout.id, { onSuccess: () => toast.success(t('admin.saved')) })}
              >
                {t('admin.payout_ask_again')}
              </button>
            )}
            {asking === 'paid' ? (
              <form onSubmit={onPaid} className="admin-inline-actions">
                <input
                  aria-label={t('admin.transfer_reference')}
                  placeholder={t('admin.transfer_reference_hint')}
                  value={reference}
                  onChange={(e) => setReference(e.target.value)}
                  maxLength={140}
                  required
                  autoComplete="off"
                />
                <button type="submit" className="button small-button primary" disabled={settle.isPending || !reference.trim()}>
                  {t('admin.confirm_paid')}
                </button>
              </form>
            ) : (
              <button type="button" className="button small-button primary" onClick={() => setAsking('paid')}>
                {t('admin.mark_paid')}
              </button>
            )}
            {asking === 'failed' ? (
              <form onSubmit={onFail} className="admin-inline-actions">
                <input aria-label={t('admin.fail_reason')} placeholder={t('admin.fail_reason')} value={reason} onChange={(e) => setReason(e.target.value)} />
                <button type="submit" className="button small-button danger" disabled={settle.isPending}>
                  {t('admin.mark_failed')}
                </button>
              </form>
            ) : (
              <button type="button" className="button small-button" onClick={() => setAsking('failed')}>
                {t('admin.mark_failed')}
              </button>
            )}
            <ActionError error={settle.error ?? reconcile.error} />
          </div>
        )}
      </td>
    </tr>
  );
}

/** The SEPA credit-transfer file of the processing bank payouts, from the platform's own account. */
function SepaExport() {
  const { t } = useTranslation();
  const [iban, setIban] = useState('');
  const [name, setName] = useState('Atelier');
  const href = `/api/admin/payouts/sepa-export?${new URLSearchParams({ debtor_iban: iban, debtor_name: name })}`;
  return (
    <form className="admin-form admin-form-compact" action="/api/admin/payouts/sepa-export" method="get" aria-label={t('admin.sepa_export')}>
      <h3>{t('admin.sepa_export')}</h3>
      <div className="admin-form-row">
        <label className="grow">
          {t('admin.debtor_iban')}
          <input name="debtor_iban" value={iban} onChange={(e) => setIban(e.target.value)} required autoComplete="off" />
        </label>
        <label>
          {t('admin.debtor_name')}
          <input name="debtor_name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <a className="button" href={iban ? href : undefined} aria-disabled={!iban} download>
          {t('admin.download_xml')}
        </a>
      </div>
      <p className="muted small">{t('admin.sepa_hint')}</p>
    </form>
  );
}
