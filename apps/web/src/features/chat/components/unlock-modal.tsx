import type { ChatMessage, WidgetData } from '@atelier/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { useMoney } from '../../currency';
import { PaymentWidget, useBalance, useDepositStatus, useInternalCurrencyName, widgetOutcome } from '../../deposits';
import { TaxBreakdown } from '../../tax';
import { useUnlock } from '../api/chat';
import { useChatPrice } from './chat-price';

type Props = { chatId: number; message: ChatMessage; onClose: () => void };

/**
 * SPEC §2 unlock confirmation: a title, a message, the amount with its currency symbol, confirm or
 * cancel. Paid from the balance when it covers the price; otherwise the server answers with the card
 * widget for exactly the price, which stays in this dialog to the end, 3-D Secure included (issue 18
 * bug 5). Its outcome (SPEC §4) is read from the payment's status, at once when the widget's frame
 * reports it ends, else every 5 s; on success the chat refreshes in place with a notice.
 */
export function UnlockModal({ chatId, message, onClose }: Props) {
  const { t } = useTranslation();
  const price = useChatPrice();
  const toast = useToast();
  const queryClient = useQueryClient();
  const unlock = useUnlock(chatId);
  const key = useRef(newIdempotencyKey());
  const [error, setError] = useState<string | null>(null);
  const [card, setCard] = useState<{ data: WidgetData; orderId: number } | null>(null);
  const status = useDepositStatus(card?.orderId ?? null);
  // Issue 31: the balance and the balance after, as the purchase dialog shows them.
  const balance = useBalance();
  const money = useMoney();
  const currencyName = useInternalCurrencyName();
  const cost = message.price;
  const sameCurrency = balance.data && cost && (!cost.currency || cost.currency === balance.data.currency);
  const after = sameCurrency ? Math.round((balance.data!.amount - cost!.amount) * 100) / 100 : null;

  const outcome = status.data && status.data.status !== 'processing' ? widgetOutcome(status.data.status) : null;
  useEffect(() => {
    if (outcome?.kind !== 'success') return;
    toast.success(t('chat.unlocked'));
    void queryClient.invalidateQueries({ queryKey: ['chat-messages', chatId] });
    void queryClient.invalidateQueries({ queryKey: ['chats'] });
    void queryClient.invalidateQueries({ queryKey: ['balance'] });
    onClose();
  }, [outcome?.kind, toast, t, queryClient, chatId, onClose]);

  async function confirm() {
    setError(null);
    try {
      const result = await unlock.mutateAsync({ messageId: message.id, idempotencyKey: key.current });
      if (result.status === 'Success') {
        toast.success(t('chat.unlocked'));
        onClose();
      } else setCard({ data: result.widget_data, orderId: result.order_id });
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
    <Modal title={t('chat.unlock_title')} onClose={cancel} className="buy-dialog unlock-dialog" testId="unlock-modal">
      <p>{card ? t('chat.unlock_by_card') : t('chat.unlock_text')}</p>
      <p className="unlock-amount" data-testid="unlock-amount">
        {price.amount(message.price)}
      </p>
      {!card && cost && (
        <dl>
          {/* The net, the VAT and the total the unlock will charge (issue 33), as the buy dialog shows them. */}
          <TaxBreakdown price={cost.amount} currency={{ code: cost.currency ?? 'EUR' }} />
        </dl>
      )}
      {!card && balance.data && (
        <dl>
          <div className="row">
            <dt>{t('balance.label', { name: currencyName })}</dt>
            <dd data-testid="unlock-balance">{money.format(balance.data.amount, balance.data.currency)}</dd>
          </div>
          {after !== null && after >= 0 && (
            <div className="row">
              <dt>{t('buy.balance_after')}</dt>
              <dd data-testid="unlock-balance-after">{money.format(after, balance.data.currency)}</dd>
            </div>
          )}
        </dl>
      )}
      <InlineError message={error} />
      <InlineError message={card && outcome?.kind === 'error' && t(outcome.key)} />
      {card && !outcome && <PaymentWidget data={card.data} onComplete={() => void status.refetch()} />}
      <div className="buy-dialog-actions">
        <button type="button" className="button ghost" onClick={cancel}>
          {t('chat.cancel')}
        </button>
        {!card && (
          <button type="button" className="button primary" onClick={confirm} disabled={unlock.isPending} data-autofocus>
            {unlock.isPending ? t('chat.unlocking') : t('chat.unlock_confirm')}
          </button>
        )}
        {card && outcome?.kind === 'error' && (
          <button
            type="button"
            className="button primary"
            onClick={() => {
              // Another card: a new payment (the failed one is over).
              key.current = newIdempotencyKey();
              setCard(null);
              void confirm();
            }}
          >
            {t('chat.try_another_card')}
          </button>
        )}
      </div>
    </Modal>
  );
}
