import type { Chat, ChatMessage } from '@atelier/shared';
import { useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSendJson, useUpload } from '../api/chat';
import { isCreator } from './chat-format';

type Props = { chat: Chat; meId: number; messages: ChatMessage[] };

/** The price of the latest proposal: the locked image's price starts from it. */
function agreedPrice(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.type === 'price_proposal' && m.price) return String(m.price.amount);
  }
  return '';
}

/**
 * The commission deal's controls (SPEC §4 Chat): the creator proposes a price while the chat is
 * active and sends the finished image locked while it is generating; the buyer answers a proposal
 * with Accept Price or Negotiate Price and sees that the artist is working while they wait.
 */
export function DealControls({ chat, meId, messages }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const send = useSendJson(chat.id);
  const upload = useUpload(chat.id);
  const [amount, setAmount] = useState('');
  const [price, setPrice] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const creator = isCreator(chat, meId);

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
    const shownPrice = price ?? agreedPrice(messages);
    return (
      <form
        className="deal-controls"
        data-testid="deal-controls"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          if (!file) return setError(t('chat.choose_image'));
          const form = new FormData();
          form.set('is_locked', '1');
          if (shownPrice) form.set('price', shownPrice);
          form.set('attachment', file);
          setProgress(0);
          try {
            await upload.mutateAsync({ form, onProgress: setProgress });
            setFile(null);
            setPrice(null);
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
          <input type="number" inputMode="decimal" min="0.01" step="0.01" value={shownPrice} onChange={(e) => setPrice(e.target.value)} />
        </label>
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {t('chat.send_locked')}
        </button>
        {progress !== null && <progress className="upload-progress" max={1} value={progress} aria-label={t('chat.uploading')} />}
        <InlineError message={error} />
      </form>
    );
  }

  if (creator && chat.status === 'price_proposed') {
    return (
      <p className="deal-note muted" data-testid="deal-controls">
        {t('chat.waiting_answer')}
      </p>
    );
  }

  if (!creator && chat.status === 'price_proposed') {
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
        <p className="deal-note working">{t('chat.working')}</p>
        <div className="deal-buttons">
          <button type="button" className="button primary" disabled={send.isPending} onClick={() => answer('accept_price')}>
            {t('chat.accept_price')}
          </button>
          <button type="button" className="button" disabled={send.isPending} onClick={() => answer('negotiate_price')}>
            {t('chat.negotiate_price')}
          </button>
        </div>
      </div>
    );
  }

  if (!creator && chat.status === 'generating') {
    return (
      <p className="deal-note working" data-testid="deal-controls">
        {t('chat.working')}
      </p>
    );
  }
  return null;
}
