import type { Chat, ChatMessage } from '@atelier/shared';
import { useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSendJson, useUpload } from '../api/chat';
import { isCreator } from './chat-format';
import { useChatPrice } from './chat-price';

type Props = { chat: Chat; meId: number; messages: ChatMessage[] };

/** The latest proposal (in a running deal, the agreed price): the locked image is sent at it. */
function agreedPrice(messages: ChatMessage[]): ChatMessage['price'] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.type === 'price_proposal' && m.price) return m.price;
  }
  return null;
}

/** Either side leaves a running deal (issue 17): asked once more, then `{action: "cancel_deal"}`. */
function CancelDeal({ chatId }: { chatId: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const send = useSendJson(chatId);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button ghost deal-cancel" onClick={() => setAsking(true)} data-testid="cancel-deal">
        {t('chat.cancel_deal')}
      </button>
    );
  }
  return (
    <div className="deal-cancel-confirm" role="group" aria-label={t('chat.cancel_deal')} data-testid="cancel-deal-confirm">
      <span>{t('chat.cancel_deal_confirm')}</span>
      <button
        type="button"
        className="button danger"
        disabled={send.isPending}
        onClick={async () => {
          try {
            await send.mutateAsync({ action: 'cancel_deal' });
            toast.info(t('chat.deal_cancelled_notice'));
          } catch (err) {
            toast.error(serverMessageOr(err, t('chat.cancel_failed')));
          } finally {
            setAsking(false);
          }
        }}
      >
        {t('chat.cancel_deal_yes')}
      </button>
      <button type="button" className="button ghost" onClick={() => setAsking(false)}>
        {t('chat.cancel_deal_keep')}
      </button>
    </div>
  );
}

/**
 * The commission deal's controls (SPEC §4 Chat, issue 17): the creator proposes a price while the
 * chat is active and sends the finished image locked, at the agreed price, while it is generating;
 * the buyer answers a proposal with Accept Price or Negotiate Price. While a deal runs, each side sees
 * whose move it is, and either may cancel it.
 */
export function DealControls({ chat, meId, messages }: Props) {
  const { t } = useTranslation();
  const price = useChatPrice();
  const toast = useToast();
  const send = useSendJson(chat.id);
  const upload = useUpload(chat.id);
  const [amount, setAmount] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const creator = isCreator(chat, meId);
  const cancel = <CancelDeal chatId={chat.id} />;

  if (creator && chat.status === 'active') {
    return (
      <form
        className="deal-controls"
        data-testid="deal-controls"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          const value = Number(amount);
          if (!amount || !Number.isFinite(value) || value <= 0) return setError(t('chat.price_invalid'));
          try {
            await send.mutateAsync({ type: 'price_proposal', amount: value });
            setAmount('');
          } catch (err) {
            setError(serverMessageOr(err, t('chat.send_failed')));
          }
        }}
      >
        <label className="deal-field">
          <span>{t('chat.propose_label')}</span>
          <input type="number" inputMode="decimal" min="0.01" step="0.01" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <button type="submit" className="button primary" disabled={send.isPending}>
          {t('chat.propose_price')}
        </button>
        <InlineError message={error} />
      </form>
    );
  }

  if (creator && chat.status === 'generating') {
    const agreed = price.amount(agreedPrice(messages));
    return (
      <form
        className="deal-controls"
        data-testid="deal-controls"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          if (!file) return setError(t('chat.choose_image'));
          // The price is the agreed one: the server takes it from the deal.
          const form = new FormData();
          form.set('is_locked', '1');
          form.set('attachment', file);
          setProgress(0);
          try {
            await upload.mutateAsync({ form, onProgress: setProgress });
            setFile(null);
          } catch (err) {
            setError(serverMessageOr(err, t('chat.send_failed')));
          } finally {
            setProgress(null);
          }
        }}
      >
        <label className="deal-field">
          <span>{t('chat.locked_image_label')}</span>
          <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="deal-field">
          <span>{t('chat.locked_price_label')}</span>
          <input type="text" readOnly value={agreed} aria-describedby="agreed-price-hint" />
        </label>
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {t('chat.send_locked')}
        </button>
        {cancel}
        <p className="deal-note muted small" id="agreed-price-hint">
          {t('chat.agreed_price_hint')}
        </p>
        {progress !== null && <progress className="upload-progress" max={1} value={progress} aria-label={t('chat.uploading')} />}
        <InlineError message={error} />
      </form>
    );
  }

  if (creator) {
    return (
      <div className="deal-controls" data-testid="deal-controls">
        <p className="deal-note muted">{chat.status === 'price_proposed' ? t('chat.waiting_answer') : t('chat.waiting_payment_creator')}</p>
        {cancel}
      </div>
    );
  }

  if (chat.status === 'price_proposed') {
    const answer = async (action: 'accept_price' | 'negotiate_price') => {
      try {
        await send.mutateAsync({ action });
        if (action === 'accept_price') toast.success(t('chat.accepted_notice'));
        else toast.info(t('chat.negotiate_notice'));
      } catch (err) {
        toast.error(serverMessageOr(err, t('chat.answer_failed')));
      }
    };
    return (
      <div className="deal-controls" data-testid="deal-controls">
        <p className="deal-note working">{t('chat.waiting_your_answer')}</p>
        <div className="deal-buttons">
          <button type="button" className="button primary" disabled={send.isPending} onClick={() => answer('accept_price')}>
            {t('chat.accept_price')}
          </button>
          <button type="button" className="button" disabled={send.isPending} onClick={() => answer('negotiate_price')}>
            {t('chat.negotiate_price')}
          </button>
          {cancel}
        </div>
      </div>
    );
  }

  if (chat.status === 'generating' || chat.status === 'waiting_payment') {
    return (
      <div className="deal-controls" data-testid="deal-controls">
        <p className="deal-note working">{chat.status === 'generating' ? t('chat.working') : t('chat.waiting_payment_buyer')}</p>
        {cancel}
      </div>
    );
  }
  return null;
}
