import type { ChatMessage } from '@atelier/shared';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';

type MessagePrice = NonNullable<ChatMessage['price']>;

/**
 * A chat price as the page writes amounts (issue 18 bug 7): in the page's language when the answer
 * names its currency, else the server's text. A paid image's price is what was paid (in euros), and
 * `paid` adds today's amount in the chosen currency as a hint.
 */
export function useChatPrice() {
  const { t } = useTranslation();
  const money = useMoney();
  const amount = (price: MessagePrice | null | undefined) => (!price ? '' : price.currency ? money.format(price.amount, price.currency) : price.formatted);
  const paid = (price: MessagePrice | null | undefined) =>
    price?.today
      ? t('chat.paid_today', { price: amount(price), today: money.format(price.today.amount, price.today.currency) })
      : t('chat.paid', { price: amount(price) });
  return { amount, paid };
}
