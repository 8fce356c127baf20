import { REFUND_MESSAGE_MAX, type RefundRequest } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useAcceptRefund, useRefundRequests, useRespondToRefund } from '../api/refunds';
import { RefundThread } from './refund-thread';
import './refunds.css';

/** The creator's side: refund requests about their sales, each answered once or accepted (refunded at once). */
export function CreatorRefunds() {
  const { t } = useTranslation();
  const requests = useRefundRequests();
  if (requests.isPending) return <Spinner />;
  if (requests.isError)
    return (
      <p className="error-text" role="alert">
        {requests.error.message}
      </p>
    );
  const mine = requests.data.filter((r) => r.role === 'creator');
  if (!mine.length) return <p className="muted">{t('refunds.creator_empty')}</p>;
  return (
    <ul className="order-list" aria-label={t('refunds.creator_title')}>
      {mine.map((r) => (
        <CreatorRequest key={r.id} request={r} />
      ))}
    </ul>
  );
}

function CreatorRequest({ request }: { request: RefundRequest }) {
  const { t } = useTranslation();
  const money = useMoney();
  const toast = useToast();
  const respond = useRespondToRefund();
  const accept = useAcceptRefund();
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const active = request.status === 'open' || request.status === 'responded';
  const onRespond = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await respond.mutateAsync({ id: request.id, message: answer.trim() });
      toast.success(t('refunds.answer_sent'));
    } catch (err) {
      setError(serverMessageOr(err, t('refunds.send_failed')));
    }
  };
  const onAccept = async () => {
    setError(null);
    try {
      await accept.mutateAsync(request.id);
      toast.success(t('refunds.accepted'));
    } catch (err) {
      setError(serverMessageOr(err, t('refunds.send_failed')));
    }
  };
  return (
    <li className="order-card" data-testid="creator-refund">
      <div className="order-head">
        <h3>{request.title}</h3>
        <span className="order-amount">{money.format(request.amount.amount, { code: request.amount.currency, symbol: request.amount.currencySymbol })}</span>
      </div>
      <p className="muted small">{t('refunds.asked_by', { nickname: request.buyer.nickname })}</p>
      <RefundThread request={request} />
      {active && (
        <div className="refund-actions">
          {request.status === 'open' && (
            <form onSubmit={onRespond} className="refund-form">
              <label className="field">
                <span>{t('refunds.your_answer')}</span>
                <textarea value={answer} onChange={(e) => setAnswer(e.target.value)} maxLength={REFUND_MESSAGE_MAX} rows={3} required />
              </label>
              <button type="submit" className="button" disabled={respond.isPending || !answer.trim()}>
                {t('refunds.send_answer')}
              </button>
            </form>
          )}
          <button type="button" className="button primary" onClick={onAccept} disabled={accept.isPending}>
            {t('refunds.accept')}
          </button>
        </div>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
