import { type Chat, formatUnreadBadge } from '@atelier/shared';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { type MoneyIn, useMoney } from '../../currency';
import { fullName, otherParty } from './chat-format';

function EnvelopeIcon() {
  return (
    <svg className="chat-envelope" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M3 6h18v12H3z M3 6l9 7 9-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
    </svg>
  );
}

type Props = { chats: Chat[]; selectedId: number | null; meId: number; currency: string | MoneyIn };

/**
 * SPEC §2 chat list: avatar, the other party's full name (fallback 'User'), their rate as 'X €/h' when they have one,
 * an online dot, the unread count (9+ above 9) and an envelope. Each item opens its conversation.
 */
export function ChatList({ chats, selectedId, meId, currency }: Props) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <ul className="chat-list" aria-label={t('chat.list_label')}>
      {chats.map((chat) => {
        const other = otherParty(chat, meId);
        const name = fullName(other) ?? t('chat.user');
        return (
          <li key={chat.id}>
            <Link
              to={`/dashboard/chat?chat=${chat.id}`}
              className="chat-list-item"
              aria-current={chat.id === selectedId ? 'true' : undefined}
              data-testid="chat-list-item"
            >
              <span className="chat-avatar-wrap">
                {other.avatar ? (
                  <img className="avatar chat-avatar" src={other.avatar} alt="" width={44} height={44} />
                ) : (
                  <span className="avatar chat-avatar avatar-fallback" aria-hidden="true">
                    {name.slice(0, 1)}
                  </span>
                )}
                {other.isOnline && <span className="online-dot" role="img" aria-label={t('chat.online')} />}
              </span>
              <span className="chat-list-text">
                <span className="chat-list-name">{name}</span>
                {/* Issue 31: a rate only for someone who charges one (a buyer has none: no "€0.00/h"). */}
                {other.hourly_rate > 0 && (
                  <span className="chat-list-rate muted small">{t('chat.rate', { rate: money.format(other.hourly_rate, currency) })}</span>
                )}
                {chat.last_message && <span className="chat-list-last muted small">{chat.last_message}</span>}
              </span>
              <span className="chat-list-side">
                {chat.unreadCount > 0 && (
                  <span className="chat-unread" data-testid="chat-unread" title={t('chat.unread', { count: chat.unreadCount })}>
                    {formatUnreadBadge(chat.unreadCount)}
                  </span>
                )}
                <EnvelopeIcon />
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
