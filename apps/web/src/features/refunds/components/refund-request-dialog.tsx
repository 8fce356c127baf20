import { REFUND_MESSAGE_MAX, REFUND_REASONS, type RefundReason } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Modal, ModalCancel } from '../../../components/ui/modal';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import './refunds.css';
import { useCreateRefundRequest } from '../api/refunds';

type Props = { orderId: number; productId?: number; unlockMessageId?: number; title: string; onClose: () => void };

/** 'Request a refund': a reason and a message for the creator and staff. */
export function RefundRequestDialog({ orderId, productId, unlockMessageId, title, onClose }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const create = useCreateRefundRequest();
  const [reason, setReason] = useState<RefundReason>('not_as_described');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldError(null);
    try {
      await create.mutateAsync({ orderId, productId, unlockMessageId, reason, message: message.trim() });
      toast.success(t('refunds.sent'));
      onClose();
    } catch (err) {
      const field = err instanceof ApiError ? err.errors?.message?.[0] : undefined;
      if (field) setFieldError(field);
      else setError(serverMessageOr(err, t('refunds.send_failed')));
    }
  }

  return (
    // Issue 31: the app's one dialog; a written message is not thrown away without asking.
    <Modal title={t('refunds.request_title')} onClose={onClose} className="buy-dialog" dirty={message.trim() !== ''}>
      <p className="product-name">{title}</p>
      <form onSubmit={submit} className="refund-form">
        <label className="field">
          <span>{t('refunds.reason')}</span>
          <select data-autofocus value={reason} onChange={(e) => setReason(e.target.value as RefundReason)}>
            {REFUND_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`refunds.reason_${r}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('refunds.message')}</span>
          <textarea
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            maxLength={REFUND_MESSAGE_MAX}
            rows={4}
            required
            placeholder={t('refunds.message_hint')}
            aria-invalid={fieldError ? true : undefined}
          />
          {fieldError && <span className="error-text small">{fieldError}</span>}
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="buy-dialog-actions">
          <ModalCancel>{t('refunds.cancel')}</ModalCancel>
          <button type="submit" className="button primary" disabled={create.isPending || !message.trim()}>
            {t('refunds.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
