import type { RefundRequest } from '@atelier/shared';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import './refunds.css';

/** A request's state and its conversation: the buyer's message, the creator's answer, staff's note. */
export function RefundThread({ request }: { request: Pick<RefundRequest, 'id' | 'status' | 'reason' | 'messages'> }) {
  const { t } = useTranslation();
  return (
    <div className="refund-thread" data-testid="refund-thread">
      <p className="small">
        <span className="order-status" data-status={request.status}>
          {t(`refunds.status_${request.status}`)}
        </span>{' '}
        <span className="muted">
          {t('refunds.request_no', { id: request.id })} · {t(`refunds.reason_${request.reason}`)}
        </span>
      </p>
      <ul className="refund-messages">
        {request.messages.map((m) => (
          <li key={`${m.from}-${m.created_at}`} data-from={m.from}>
            <strong>{t(`refunds.from_${m.from}`)}</strong> <time className="muted small">{formatDateTime(m.created_at)}</time>
            <p>{m.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
