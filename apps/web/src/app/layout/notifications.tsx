import { formatUnreadBadge } from '@atelier/shared/constants';
import { minorToAmount } from '@atelier/shared/money';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BellIcon } from '../../components/ui/icons';
import { useAuth } from '../../features/auth';
import { type Money, useMoney } from '../../features/currency';
import { useMarkNotificationsRead, useNotifications, useUnreadCounts } from '../../features/notifications';
import { formatDateTime } from '../../lib/format-date';
import { type TFunction, useTranslation } from '../../lib/i18n-runtime';

/**
 * SPEC §2 notifications button: the unread count (9+), and a dropdown listing the notifications,
 * each linking to its subject; opening one marks it read. Guests and an empty list see 'no
 * notifications yet'. Kept current by the live stream (or polled while it is closed).
 */
export function NotificationsButton() {
  const { t } = useTranslation();
  const signedIn = useAuth().data?.authenticated === true;
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  const counts = useUnreadCounts(signedIn);
  const list = useNotifications(signedIn && open);
  const markRead = useMarkNotificationsRead();
  const unread = signedIn ? (counts.data?.notifications ?? 0) : 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const items = signedIn ? (list.data?.payload ?? []) : [];
  return (
    <div className="popover-anchor" ref={box}>
      <button
        type="button"
        className="icon-button"
        // Issue 31 (axe label-content-name-mismatch): the name holds the badge's text as a word of its own ("9+" too).
        aria-label={
          unread > 9
            ? `${t('nav.notifications')}, ${t('notifications.unread_many', { badge: formatUnreadBadge(unread) })}`
            : unread > 0
              ? `${t('nav.notifications')}, ${t('notifications.unread', { count: unread })}`
              : t('nav.notifications')
        }
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid="notifications-button"
      >
        <BellIcon />
        {unread > 0 && (
          <span className="badge" data-testid="notifications-badge">
            {formatUnreadBadge(unread)}
          </span>
        )}
      </button>
      {open && (
        <div id={id} className="popover notifications-popover" role="status" data-testid="notifications-dropdown">
          <div className="notifications-head">
            <strong>{t('nav.notifications')}</strong>
            {unread > 0 && (
              <button type="button" className="link-button small" onClick={() => markRead.mutate(undefined)}>
                {t('notifications.mark_all_read')}
              </button>
            )}
          </div>
          <NotificationItems items={items} onOpen={() => setOpen(false)} />
        </div>
      )}
    </div>
  );
}

type Note = NonNullable<ReturnType<typeof useNotifications>['data']>['payload'][number];

const REFUND_WORDS = {
  responded: 'notifications.refund_responded',
  refunded: 'notifications.refund_refunded',
  rejected: 'notifications.refund_rejected',
} as const;

/**
 * A notice in the page's language (issue 31): a sale or a refund is worded from its params, with the
 * amount as every other page shows money ("€25.00", "25,00 €"); other kinds show the server's text.
 */
export function noticeText(n: Note, t: TFunction, money: Money): string {
  const p = n.params;
  if (!p?.title && p?.count === undefined) return n.text;
  const amount = p.amount_minor === undefined ? '' : money.format(minorToAmount(p.amount_minor), 'EUR');
  const title = p.title ?? '';
  if (n.kind === 'sale_made') return p.title ? t('notifications.sale_one', { title, amount }) : t('notifications.sale_many', { count: p.count ?? 0, amount });
  if (n.kind === 'refund_requested') return t('notifications.refund_requested', { title, amount });
  if (n.kind === 'refund_status' && p.status && p.status !== 'open') return t(REFUND_WORDS[p.status], { title, amount });
  if (n.kind === 'product_updated' && p.title) return t('notifications.product_updated', { title, number: p.count ?? '' });
  return n.text;
}

/** The notifications as links to their subjects; opening an unread one marks it read. */
function NotificationItems({ items, onOpen }: { items: Note[]; onOpen?: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const markRead = useMarkNotificationsRead();
  if (items.length === 0) return <p className="muted">{t('nav.no_notifications')}</p>;
  return (
    <ul className="notifications-list">
      {items.map((n) => (
        <li key={n.id} data-unread={n.read ? undefined : 'true'}>
          <Link
            to={n.link ?? '/dashboard'}
            onClick={() => {
              if (!n.read) markRead.mutate([n.id]);
              onOpen?.();
            }}
          >
            <span>{noticeText(n, t, money)}</span>
            <time className="muted small" dateTime={n.created_at}>
              {formatDateTime(Date.parse(n.created_at) / 1000)}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The sidebar's notifications (issue 18): the same list as the header bell, loaded when opened.
 * Guests see 'no notifications yet'.
 */
export function SidebarNotifications({ open, onOpen }: { open: boolean; onOpen?: () => void }) {
  const signedIn = useAuth().data?.authenticated === true;
  const list = useNotifications(signedIn && open);
  return <NotificationItems items={signedIn ? (list.data?.payload ?? []) : []} onOpen={onOpen} />;
}
