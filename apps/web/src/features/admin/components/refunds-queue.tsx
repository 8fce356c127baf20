import { type AdminRefundRequest, REFUND_MESSAGE_MAX } from '@atelier/shared';
import { useState } from 'react';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useAdminRefunds, useFormatMinor, useResolveRefund } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows } from './admin-table';

const STATUSES = ['open', 'refunded', 'rejected'] as const;

/** Refund requests: the order, the file, both parties' messages and refund history, then refund or reject with a note. */
export function RefundsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string>('open');
  const requests = useAdminRefunds(status);
  return (
    <AdminSection
      id="refunds"
      title={t('admin.refunds_title')}
      tools={<StatusFilter value={status} onChange={setStatus} options={STATUSES} optionLabel={(s) => t(`refunds.status_${s}`)} all="last" />}
    >
      <AdminRows query={requests} empty={t('admin.refunds_empty')}>
        {(rows) => (
          <ul className="admin-cards">
            {rows.map((r) => (
              <RefundCard key={r.id} request={r} />
            ))}
          </ul>
        )}
      </AdminRows>
    </AdminSection>
  );
}

function RefundCard({ request }: { request: AdminRefundRequest }) {
  const formatMinor = useFormatMinor();
  const money = useMoney();
  const { t } = useTranslation();
  const toast = useToast();
  const resolve = useResolveRefund();
  const [note, setNote] = useState('');
  const active = request.status === 'open' || request.status === 'responded';
  const decide = (decision: 'refund' | 'reject') =>
    resolve.mutate(
      { id: request.id, decision, note: note.trim() },
      { onSuccess: () => toast.success(t(decision === 'refund' ? 'admin.refund_done' : 'admin.reject_done')) },
    );
  return (
    <li className="admin-card" data-testid="refund-request">
      <h3>
        #{request.id} · {request.title}
      </h3>
      <p>
        <span className="admin-status" data-status={request.status}>
          {t(`refunds.status_${request.status}`)}
        </span>{' '}
        {money.format(request.amount.amount, { code: request.amount.currency, symbol: request.amount.currencySymbol })}{' '}
        <span className="muted small">({formatMinor(request.amount.amount_minor)})</span>
      </p>
      <p className="small">
        {request.order_id !== null ? t('admin.refund_order', { id: request.order_id }) : t('admin.refund_chat', { id: request.chat_id ?? 0 })} ·{' '}
        {t(`refunds.reason_${request.reason}`)} · {formatDateTime(request.created_at)}
        {request.file_url && (
          <>
            {' · '}
            <a href={request.file_url} target="_blank" rel="noreferrer">
              {t('admin.refund_file')}
            </a>
          </>
        )}
      </p>
      <p className="small">
        {t('admin.refund_buyer', { nickname: request.buyer.nickname, requests: request.history.buyer.requests, refunded: request.history.buyer.refunded })}
        <br />
        {t('admin.refund_creator', {
          nickname: request.creator.nickname,
          requests: request.history.creator.requests,
          refunded: request.history.creator.refunded,
        })}
      </p>
      <ul className="refund-messages">
        {request.messages.map((m) => (
          <li key={`${m.from}-${m.created_at}`} data-from={m.from}>
            <strong>{t(`refunds.from_${m.from}`)}</strong> <span className="muted small">{formatDateTime(m.created_at)}</span>
            <p>{m.text}</p>
          </li>
        ))}
      </ul>
      {active && (
        <div className="admin-inline-actions">
          <input
            aria-label={t('admin.refund_note')}
            placeholder={t('admin.refund_note')}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={REFUND_MESSAGE_MAX}
          />
          <button type="button" className="button small-button primary" disabled={resolve.isPending} onClick={() => decide('refund')}>
            {t('admin.refund')}
          </button>
          <button type="button" className="button small-button danger" disabled={resolve.isPending} onClick={() => decide('reject')}>
            {t('admin.reject')}
          </button>
          <ActionError error={resolve.error} />
        </div>
      )}
    </li>
  );
}
