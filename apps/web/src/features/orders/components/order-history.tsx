import type { Order } from '@atelier/shared';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useSelectedCurrency } from '../../currency';
import { useOrders } from '../api/orders';
import { DownloadButton } from './download-button';
import { GenerateImage } from './generate-image';
import './orders.css';

const imageOf = (docUrl: string | null) => (docUrl ? `/storage/${docUrl}` : null);

type Shown = { symbol: string; decimals: number };

/**
 * An order shows what was paid, in the currency it was paid in (issue 18 bug 7); today's equivalent
 * in the chosen currency is a hint beside it.
 */
function OrderCard({ order, paid, today }: { order: Order; paid: Shown; today: Shown | null }) {
  const { t } = useTranslation();
  const downloadable = order.status === 'Success';
  return (
    <li className="order-card" data-testid="order">
      <div className="order-head">
        <h3>{order.title}</h3>
        <span className="order-amount">
          <Price amount={order.amount} symbol={paid.symbol} decimals={paid.decimals} />
          {order.today && today && (
            <span className="muted small" data-testid="order-today">
              {t('orders.today', { amount: `${order.today.amount.toFixed(today.decimals)} ${today.symbol}` })}
            </span>
          )}
        </span>
      </div>
      <div className="order-meta">
        <span>{t('orders.order', { id: order.id })}</span>
        <time dateTime={new Date(order.created_at * 1000).toISOString()}>{formatDateTime(order.created_at)}</time>
        <span className="order-status" data-status={order.status}>
          {t(`orders.status_${order.status}`)}
        </span>
      </div>
      <ul className="order-items">
        {order.items.map((item) => {
          const image = imageOf(item.info.doc_url);
          return (
            <li key={item.info.id} className="order-item">
              {image ? (
                <img src={image} alt="" width={56} height={56} loading="lazy" />
              ) : (
                <span className="order-thumb" aria-hidden="true">
                  {item.info.title.slice(0, 1)}
                </span>
              )}
              <div>
                <p className="order-item-title">{item.info.title}</p>
                <span className="muted small">
                  {t(`products.type_${item.product_type}`, { defaultValue: item.product_type })} · {t('orders.seller', { nickname: item.seller.nickname })}
                </span>
              </div>
              <div className="order-item-side">
                <Price amount={item.price} symbol={paid.symbol} decimals={paid.decimals} />
                {downloadable && (
                  <DownloadButton url={item.info.doc_url_orig} title={item.info.title} label={t('orders.download')} className="button primary" />
                )}
              </div>
              {downloadable && item.product_type === 'prompt' && (
                <GenerateImage promptId={item.info.id} title={item.info.title} imagePrompt={item.info.image_prompt} />
              )}
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/**
 * SPEC §2 Order history: the bought items with a download for each item of a successful order.
 * An owned prompt can also generate images (format and size from the settings).
 */
export function OrderHistory() {
  const { t } = useTranslation();
  const orders = useOrders();
  const currencies = useSelectedCurrency().list;
  const shown = (code: string): Shown => {
    const currency = currencies.find((c) => c.code === code);
    return { symbol: currency?.symbol ?? code, decimals: currency?.decimals ?? 2 };
  };

  if (orders.isPending)
    return (
      <div className="order-skeleton" role="status" aria-label={t('app.loading')}>
        <div className="skeleton" />
        <div className="skeleton" />
      </div>
    );
  if (orders.isError)
    return (
      <div className="state-block" role="alert">
        <p className="state-title error-text">{orders.error.message || t('orders.load_failed')}</p>
        <button type="button" className="button" onClick={() => orders.refetch()}>
          {t('products.retry')}
        </button>
      </div>
    );
  if (!orders.data.length)
    return (
      <div className="state-block">
        <p className="state-title">{t('orders.empty')}</p>
        <Link className="button primary" to="/products">
          {t('orders.browse')}
        </Link>
      </div>
    );
  return (
    <ul className="order-list" aria-label={t('dashboard.order_history')}>
      {orders.data.map((order) => (
        <OrderCard key={order.id} order={order} paid={shown(order.currencyCode)} today={order.today ? shown(order.today.currencyCode) : null} />
      ))}
    </ul>
  );
}
