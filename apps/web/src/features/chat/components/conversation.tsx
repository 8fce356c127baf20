import { CHAT_MESSAGE_MAX_CHARS, CHAT_NEAR_BOTTOM_PX, CHAT_SCROLL_FLAG_MS, CHAT_STATUS_LABELS, type Chat, type ChatMessage } from '@atelier/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { InlineError } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMessages, useSendJson, useUpload } from '../api/chat';
import { dayLabel, fullName, isCreator, otherParty } from './chat-format';
import { DealControls } from './deal-controls';
import { MessageBubble } from './message-bubble';
import { UnlockModal } from './unlock-modal';

type Props = { chat: Chat; meId: number };

/**
 * SPEC §4: while the price is offered or the artwork is being made, the buyer's input waits, and says
 * why (issue 18): their answer to the price, or the artist's work. The creator's input stays usable.
 */
function busyText(chat: Chat, meId: number): 'chat.waiting_your_answer' | 'chat.busy_placeholder' | null {
  if (isCreator(chat, meId)) return null;
  if (chat.status === 'price_proposed') return 'chat.waiting_your_answer';
  if (chat.status === 'generating') return 'chat.busy_placeholder';
  return null;
}

/** The locked image a deal waiting for payment is about (the newest); older ones are not for sale. */
function payableImageId(chat: Chat, messages: ChatMessage[]): number | null {
  if (chat.status !== 'waiting_payment') return null;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.type === 'locked_image') return messages[i]!.id;
  return null;
}

/**
 * SPEC §2 conversation: a header linking to the other party's profile with the status label, the
 * messages with 'Today' (or date) separators, a scroll-to-bottom button counting new messages, the
 * deal controls and the input (Enter sends, attachments upload with progress).
 */
export function Conversation({ chat, meId }: Props) {
  const { t } = useTranslation();
  const messages = useMessages(chat.id);
  const queryClient = useQueryClient();
  // Reading the messages marks them read on the server: the list drops this chat's unread badge then,
  // whenever the list itself was fetched (it may have been fetched before the read).
  useEffect(() => {
    if (messages.dataUpdatedAt && chat.unreadCount > 0) void queryClient.invalidateQueries({ queryKey: ['chats'] });
  }, [messages.dataUpdatedAt, chat.unreadCount, queryClient]);
  const send = useSendJson(chat.id);
  const upload = useUpload(chat.id);
  const other = otherParty(chat, meId);
  const name = fullName(other) ?? t('chat.user');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [unlocking, setUnlocking] = useState<ChatMessage | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const busyKey = busyText(chat, meId);
  const busy = busyKey !== null;
  const statusLabel = CHAT_STATUS_LABELS[chat.status];

  // Scrolling (SPEC §9): within 100 px of the end is "at the bottom"; new messages then scroll into
  // view, else the button counts them. A scroll the app makes is flagged for 150 ms so the scroll
  // handler does not take it for the reader's own.
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const autoScrolling = useRef(false);
  const seen = useRef<{ chatId: number; count: number } | null>(null);
  const [showJump, setShowJump] = useState(false);
  const [newCount, setNewCount] = useState(0);

  const scrollToBottom = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    autoScrolling.current = true;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    setShowJump(false);
    setNewCount(0);
    setTimeout(() => {
      autoScrolling.current = false;
    }, CHAT_SCROLL_FLAG_MS);
  }, []);

  // A picture that arrives after the first scroll makes the list taller, and the deal's controls
  // growing below make its window shorter: a reader at the newest message stays there.
  const keepAtBottom = useCallback(() => {
    if (atBottom.current) scrollToBottom();
  }, [scrollToBottom]);
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(keepAtBottom);
    observer.observe(el);
    return () => observer.disconnect();
  }, [keepAtBottom]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el || autoScrolling.current) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= CHAT_NEAR_BOTTOM_PX;
    setShowJump(!atBottom.current);
    if (atBottom.current) setNewCount(0);
  };

  const list = messages.data ?? [];
  const payableId = payableImageId(chat, list);
  useLayoutEffect(() => {
    if (!messages.data) return;
    const count = messages.data.length;
    const before = seen.current;
    seen.current = { chatId: chat.id, count };
    if (!before || before.chatId !== chat.id) return scrollToBottom();
    if (count <= before.count) return;
    const last = messages.data[count - 1];
    if (atBottom.current || last?.user.id === meId) scrollToBottom();
    else {
      setNewCount((n) => n + (count - before.count));
      setShowJump(true);
    }
  }, [messages.data, chat.id, meId, scrollToBottom]);

  async function submit() {
    const trimmed = text.trim();
    if (!trimmed || busy || send.isPending) return;
    setError(null);
    try {
      await send.mutateAsync({ message: trimmed });
      setText('');
    } catch (err) {
      setError(serverMessageOr(err, t('chat.send_failed')));
    }
  }

  async function attach(file: File) {
    const form = new FormData();
    if (text.trim()) form.set('message', text.trim());
    form.set('attachment', file);
    setError(null);
    setProgress(0);
    try {
      await upload.mutateAsync({ form, onProgress: setProgress });
      setText('');
    } catch (err) {
      setError(serverMessageOr(err, t('chat.file_failed')));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  let lastDay: string | null = null;
  return (
    <section className="conversation" aria-label={t('chat.conversation_with', { name })} data-testid="conversation">
      <header className="conversation-head">
        <Link className="conversation-back" to="/dashboard/chat?list=1" aria-label={t('chat.back_to_list')}>
          ←
        </Link>
        <Link className="conversation-who" to={`/profile/${other.nickname}`}>
          {other.avatar ? (
            <img className="avatar chat-avatar" src={other.avatar} alt="" width={40} height={40} />
          ) : (
            <span className="avatar chat-avatar avatar-fallback" aria-hidden="true">
              {name.slice(0, 1)}
            </span>
          )}
          <span>
            <strong>{name}</strong>
            <span className="muted small"> @{other.nickname}</span>
          </span>
        </Link>
        {statusLabel && (
          <span className={`chat-status status-${chat.status}`} data-testid="chat-status">
            {t(`chat.status_${chat.status}` as 'chat.status_generating')}
          </span>
        )}
      </header>
      <div className="conversation-scroll" ref={scroller} onScroll={onScroll} data-testid="conversation-scroll">
        {messages.isPending ? (
          <Spinner label={t('app.loading')} />
        ) : (
          <ol className="messages">
            {list.map((m) => {
              const day = dayLabel(m.created_at);
              const separator = day !== lastDay;
              lastDay = day;
              return (
                <Fragment key={m.id}>
                  {separator && (
                    <li className="day-separator" data-testid="day-separator">
                      <span>{day === 'today' ? t('chat.today') : day}</span>
                    </li>
                  )}
                  <MessageBubble message={m} own={m.user.id === meId} payable={m.id === payableId} onUnlock={setUnlocking} onImageLoad={keepAtBottom} />
                </Fragment>
              );
            })}
          </ol>
        )}
      </div>
      {showJump && (
        <button type="button" className="jump-bottom" onClick={scrollToBottom} data-testid="scroll-to-bottom" aria-label={t('chat.scroll_bottom')}>
          ↓{newCount > 0 && <span className="jump-count">{newCount}</span>}
        </button>
      )}
      <DealControls chat={chat} meId={meId} messages={list} />
      {chat.blocked_me && <p className="deal-note muted">{t('chat.blocked_me')}</p>}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <input ref={fileInput} type="file" hidden onChange={(e) => e.target.files?.[0] && attach(e.target.files[0])} data-testid="attach-input" />
        <button
          type="button"
          className="icon-button attach"
          aria-label={t('chat.attach')}
          disabled={busy || upload.isPending}
          onClick={() => fileInput.current?.click()}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              d="M16.5 6.5 8.9 14.1a2 2 0 0 0 2.8 2.8l7.4-7.4a4 4 0 0 0-5.7-5.7L5.8 11.4a6 6 0 0 0 8.5 8.5l6.2-6.2"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
        </button>
        <textarea
          className="composer-input"
          rows={1}
          value={text}
          maxLength={CHAT_MESSAGE_MAX_CHARS}
          disabled={busy}
          placeholder={busyKey ? t(busyKey) : t('chat.placeholder')}
          aria-label={t('chat.message_label')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <button type="submit" className="button primary" disabled={busy || !text.trim() || send.isPending}>
          {t('chat.send')}
        </button>
      </form>
      {progress !== null && <progress className="upload-progress" max={1} value={progress} aria-label={t('chat.uploading')} />}
      <InlineError message={error} />
      {unlocking && <UnlockModal chatId={chat.id} message={unlocking} onClose={() => setUnlocking(null)} />}
    </section>
  );
}
