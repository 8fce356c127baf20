import { useCallback, useLayoutEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useSelectedCurrency } from '../../currency';
import { useChats } from '../api/chat';
import { ChatList } from './chat-list';
import { Conversation } from './conversation';
import './chat.css';

/**
 * SPEC §2 Chat tab: the list on the left, the conversation on the right; the first chat is selected
 * on opening. Under 768 px they are two screens: the list, and a chat once one is picked, full-screen
 * with its input always in view (issue 18).
 */
export function ChatView() {
  const { t } = useTranslation();
  const meId = useAuth().data?.user?.id ?? null;
  const chats = useChats(true);
  const currency = useSelectedCurrency();
  const [params] = useSearchParams();
  const asked = Number(params.get('chat'));
  const list = chats.data ?? [];
  const selected = list.find((c) => c.id === asked) ?? list[0] ?? null;
  const screen = list.some((c) => c.id === asked) ? 'conversation' : 'list';
  // Where the chat starts on the page: on a desktop it fills the rest of the first screen from there,
  // so the input is in view. On a phone an open conversation covers the page, which must not scroll.
  const tabRef = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    const measure = () => el.style.setProperty('--chat-top', `${Math.max(0, el.getBoundingClientRect().top + window.scrollY)}px`);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  useLayoutEffect(() => {
    if (screen !== 'conversation') return;
    document.body.classList.add('chat-open');
    return () => document.body.classList.remove('chat-open');
  }, [screen]);

  if (chats.isPending || meId === null) return <Spinner label={t('app.loading')} />;
  if (!list.length) {
    return (
      <section className="chat-empty panel" data-testid="chat-tab">
        <p>{t('chat.empty')}</p>
        <Link className="button primary" to="/products">
          {t('chat.browse')}
        </Link>
      </section>
    );
  }
  return (
    <section ref={tabRef} className="chat-tab" data-screen={screen} data-testid="chat-tab">
      <ChatList chats={list} selectedId={selected?.id ?? null} meId={meId} currency={currency.current ?? 'EUR'} />
      {selected ? <Conversation key={selected.id} chat={selected} meId={meId} /> : <p className="chat-select muted">{t('chat.select')}</p>}
    </section>
  );
}
