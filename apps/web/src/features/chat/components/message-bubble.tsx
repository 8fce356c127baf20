import type { ChatMessage } from '@atelier/shared';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { ReportLink } from '../../reports';
import { formatMessageTime } from './chat-format';
import { useChatPrice } from './chat-price';

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <rect x="5" y="11" width="14" height="10" rx="2" fill="currentColor" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

type Props = {
  message: ChatMessage;
  own: boolean;
  /** A locked image the deal waits to be paid for (one of a cancelled deal is not for sale). */
  payable?: boolean;
  onUnlock: (message: ChatMessage) => void;
  /** A picture finished loading (the conversation keeps the newest message in view). */
  onImageLoad?: () => void;
};

/** One message: own bubbles yellow, the other party's teal, the deal's fixed steps centred, time HH:MM. */
export function MessageBubble({ message, own, payable = true, onUnlock, onImageLoad }: Props) {
  const { t } = useTranslation();
  const money = useMoney();
  const price = useChatPrice();
  const time = (
    <time className="bubble-time" dateTime={message.created_at}>
      {formatMessageTime(message.created_at)}
    </time>
  );
  if (message.type === 'system') {
    return (
      <li className="chat-system" data-testid="chat-message">
        <span>{message.message}</span> {time}
      </li>
    );
  }
  // A price offer reads in the page's language ("Preis angeboten: 30,00 €"); the server's text is English.
  const text =
    message.type === 'price_proposal' && message.price?.currency ? `${t('chat.status_price_proposed')}: ${price.amount(message.price)}` : message.message;
  let body: React.ReactNode = text ? <p className="bubble-text">{text}</p> : null;
  if (message.type === 'product' && message.product) {
    body = (
      <Link className="bubble-product" to={`/products/${message.product.slug}`}>
        {message.product.preview_url && <img src={message.product.preview_url} alt="" width={64} height={48} />}
        <span>
          <span className="muted small">{t('chat.about_product')}</span>
          <strong>{message.product.title}</strong>
        </span>
      </Link>
    );
  }
  if (message.type === 'locked_image' && message.attachment_url) {
    const image = <img src={message.attachment_url} alt={message.attachment_name ?? ''} width={240} height={180} onLoad={onImageLoad} />;
    const priceLabel = message.is_locked ? t('chat.locked_for', { price: price.amount(message.price) }) : price.paid(message.price);
    if (message.is_locked && !own && payable) {
      body = (
        <button type="button" className="locked-image" onClick={() => onUnlock(message)} data-testid="locked-image">
          {image}
          <span className="locked-overlay">
            <LockIcon />
            <span className="locked-cta">{t('chat.unlock')}</span>
            <span className="locked-price">{price.amount(message.price)}</span>
          </span>
        </button>
      );
    } else if (message.is_preview) {
      // The buyer's blurred copy of an image that is not for sale (any more).
      body = (
        <span className="locked-image own" data-testid="locked-image">
          {image}
          <span className="locked-overlay">
            <LockIcon />
            <span className="locked-price">{t('chat.locked_closed')}</span>
          </span>
        </span>
      );
    } else if (own) {
      // Its creator sees the original all along (issue 18 bug 12), with what the buyer sees of it.
      body = (
        <span className="own-locked" data-testid="own-locked-image">
          <a className="bubble-image" href={message.attachment_url} target="_blank" rel="noopener">
            {image}
          </a>
          <span className="own-locked-label">
            <LockIcon />
            {priceLabel}
          </span>
        </span>
      );
    } else {
      // The buyer's paid image, with what they paid and its VAT (issue 33).
      const tax = message.tax;
      body = (
        <>
          <a className="bubble-image" href={message.attachment_url} target="_blank" rel="noopener" data-testid="unlocked-image">
            {image}
          </a>
          <span className="muted small" data-testid="unlocked-paid">
            {priceLabel}
            {tax && tax.vat_minor > 0 && ` · ${t('tax.order_vat', { rate: String(tax.rate), amount: money.format(tax.vat_minor / 100, 'EUR') })}`}
            {tax?.reverse_charge && ` · ${t('tax.reverse_charge')}`}
          </span>
        </>
      );
    }
  } else if (message.type === 'attachment' && message.attachment_url) {
    const isImage = IMAGE_NAME.test(message.attachment_name ?? '');
    body = (
      <>
        <a className="bubble-file" href={message.attachment_url} target="_blank" rel="noopener">
          {isImage ? (
            <img src={message.attachment_url} alt={message.attachment_name ?? ''} width={240} height={180} onLoad={onImageLoad} />
          ) : (
            (message.attachment_name ?? t('chat.attachment'))
          )}
        </a>
        {message.message && <p className="bubble-text">{message.message}</p>}
      </>
    );
  }
  return (
    <li className={`bubble ${own ? 'own' : 'other'}${message.type === 'price_proposal' ? ' proposal' : ''}`} data-testid="chat-message">
      {body}
      {time}
      {!own && message.type !== 'system' && (
        <ReportLink subjectType="message" subjectId={message.id} title={t('chat.report_message_title')} className="bubble-report" />
      )}
    </li>
  );
}
