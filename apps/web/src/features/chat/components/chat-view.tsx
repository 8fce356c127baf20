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
 * on opening. Under 768 px they are two screens: the list, and a chat once one is picked.
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
    <section className="chat-tab" data-screen={screen} data-testid="chat-tab">
      <ChatList chats={list} selectedId={selected?.id ?? null} meId={meId} symbol={currency.current?.symbol ?? '€'} />
      {selected ? <Conversation key={selected.id} chat={selected} meId={meId} /> : <p className="chat-select muted">{t('chat.select')}</p>}
    </section>
  );
}
