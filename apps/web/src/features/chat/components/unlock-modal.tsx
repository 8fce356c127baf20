import type { ChatMessage, WidgetData } from '@atelier/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { PaymentWidget, rememberReturn, useDepositStatus, widgetOutcome } from '../../deposits';
import { useUnlock } from '../api/chat';

type Props = { chatId: number; message: ChatMessage; onClose: () => void };

/**
 * SPEC §2 unlock confirmation: a title, a message, the amount with its currency symbol, confirm or
 * cancel. Paid from the balance when it covers the price; otherwise the server answers with the card
 * widget for exactly the price, whose outcome (SPEC §4) is read from the payment's status.
 */
export function UnlockModal({ chatId, message, onClose }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const unlock = useUnlock(chatId);
  const key = useRef(newIdempotencyKey());
  const [error, setError] = useState<string | null>(null);
  const [card, setCard] = useState<{ data: WidgetData; orderId: number } | null>(null);
  const status = useDepositStatus(card?.orderId ?? null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => confirmRef.current?.focus(), []);

  const outcome = status.data && status.data.status !== 'processing' ? widgetOutcome(status.data.status) : null;
  useEffect(() => {
    if (!outcome) return;
    if (outcome.kind === 'success') {
      toast.success(t('chat.unlocked'));
      void queryClient.invalidateQueries({ queryKey: ['chat-messages', chatId] });
      void queryClient.invalidateQueries({ queryKey: ['chats'] });
      void queryClient.invalidateQueries({ queryKey: ['balance'] });
      onClose();
    }
  }, [outcome, toast, t, queryClient, chatId, onClose]);

  async function confirm() {
    setError(null);
    try {
      const result = await unlock.mutateAsync({ messageId: message.id, idempotencyKey: key.current });
      if (result.status === 'Success') {
        toast.success(t('chat.unlocked'));
        onClose();
      } else {
        // A provider's form may take the whole tab to the payment pages; their success page leads back here.
        rememberReturn(`/dashboard/chat?chat=${chatId}`);
        setCard({ data: result.widget_data, orderId: result.order_id });
      }
    } catch (err) {
      key.current = newIdempotencyKey();
      setError(serverMessageOr(err, t('chat.unlock_failed')));
    }
  }

  function cancel() {
    // A card payment left before its outcome is a cancelled payment (SPEC §4).
    if (card && !outcome) toast.info(t('payment.cancelled'));
    onClose();
  }

  return (
    <div className="buy-dialog-backdrop">
      <div
        className="buy-dialog unlock-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="unlock-title"
        data-testid="unlock-modal"
        onKeyDown={(e) => e.key === 'Escape' && cancel()}
      >
        <h2 id="unlock-title">{t('chat.unlock_title')}</h2>
        <p>{card ? t('chat.unlock_by_card') : t('chat.unlock_text')}</p>
        <p className="unlock-amount" data-testid="unlock-amount">
          {message.price?.formatted}
        </p>
        <InlineError message={error} />
        <InlineError message={card && outcome?.kind === 'error' && t(outcome.key)} />
        {card && !outcome && <PaymentWidget data={card.data} />}
        <div className="buy-dialog-actions">
          <button type="button" className="button ghost" onClick={cancel}>
            {t('chat.cancel')}
          </button>
          {!card && (
            <button ref={confirmRef} type="button" className="button primary" onClick={confirm} disabled={unlock.isPending}>
              {unlock.isPending ? t('chat.unlocking') : t('chat.unlock_confirm')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
