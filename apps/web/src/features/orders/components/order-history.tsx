import { type Order, REFUND_WINDOW_DAYS, type RefundRequest } from '@atelier/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, LoadFailed, SkeletonRows } from '../../../components/ui/load-states';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useMoney } from '../../currency';
import { RefundRequestDialog, RefundThread, useRefundRequests } from '../../refunds';
import { OwnedVersions } from '../../versions';
import { useOrders } from '../api/orders';
import { DownloadButton } from './download-button';
import { GenerateImage } from './generate-image';
import { GeneratedImages } from './generated-images';
import './orders.css';

const imageOf = (docUrl: string | null) => (docUrl ? `/storage/${docUrl}` : null);

/**
 * An order shows what was paid, in the currency it was paid in (issue 18 bug 7); today's equivalent
 * in the chosen currency is a hint beside it.
 */
function OrderCard({ order, requests }: { order: Order; requests: RefundRequest[] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [asking, setAsking] = useState<{ productId: number; title: string } | null>(null);
  const downloadable = order.status === 'Success';
  // Within 14 days of the purchase, each item not refunded and without a request in progress may be asked back.
  const refundable = order.status === 'Success' && Date.now() - order.created_at * 1000 <= REFUND_WINDOW_DAYS * 86_400_000;
  return (
    <li className="order-card" data-testid="order">
      <div className="order-head">
        <h3>{order.title}</h3>
        <span className="order-amount">
          <Price amount={order.amount} currency={order.currencyCode} />
          {order.today && (
            <span className="muted small" data-testid="order-today">
              {t('orders.today', { amount: money.format(order.today.amount, order.today.currencyCode) })}
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
        {order.tax && order.tax.vat_minor > 0 && (
          <span className="muted small" data-testid="order-vat">
            {t('tax.order_vat', { rate: String(order.tax.rate), amount: money.format(order.tax.vat_minor / 100, 'EUR') })}
          </span>
        )}
        {order.tax?.reverse_charge && <span className="muted small">{t('tax.reverse_charge')}</span>}
        {order.invoice_url && (
          <a href={order.invoice_url} download data-testid="order-invoice">
            {t('tax.invoice', { number: order.invoice_number ?? '' }).trim()}
          </a>
        )}
        {order.credit_note_url && (
          <a href={order.credit_note_url} download data-testid="order-credit-note">
            {t('tax.credit_note')}
          </a>
        )}
      </div>
      <ul className="order-items">
        {order.items.map((item) => {
          const image = imageOf(item.info.doc_url);
          const refunded = item.refund_status === 'Refunded';
          const itemRequests = requests.filter((r) => r.order_id === order.id && r.product_id === item.info.id);
          const inProgress = itemRequests.some((r) => r.status === 'open' || r.status === 'responded');
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
                {/* Issue 34: the licence the line sold; an upgrade line names the licence it replaced. */}
                {item.licence_tier && (
                  <span className="muted small order-licence">
                    {' · '}
                    {item.upgraded_from
                      ? t('licences.upgrade_line', { from: t(`licences.${item.upgraded_from}`), to: t(`licences.${item.licence_tier}`) })
                      : t(`licences.${item.licence_tier}`)}
                  </span>
                )}
              </div>
              <div className="order-item-side">
                <Price amount={item.price} currency={order.currencyCode} />
                {refunded && (
                  <span className="order-status" data-status="Refunded">
                    {t('orders.status_Refunded')}
                  </span>
                )}
                {downloadable && !refunded && (
                  <DownloadButton url={item.info.doc_url_orig} title={item.info.title} label={t('orders.download')} className="button primary" />
                )}
                {refundable && !refunded && !inProgress && item.price > 0 && (
                  <button type="button" className="button" onClick={() => setAsking({ productId: item.info.id, title: item.info.title })}>
                    {t('refunds.request')}
                  </button>
                )}
              </div>
              {itemRequests.map((r) => (
                <RefundThread key={r.id} request={r} />
              ))}
              {downloadable && !refunded && item.product_type !== 'pack' && <OwnedVersions productId={item.info.id} />}
              {downloadable && !refunded && item.product_type === 'prompt' && (
                <GenerateImage promptId={item.info.id} title={item.info.title} imagePrompt={item.info.image_prompt} />
              )}
            </li>
          );
        })}
      </ul>
      {asking && <RefundRequestDialog orderId={order.id} productId={asking.productId} title={asking.title} onClose={() => setAsking(null)} />}
    </li>
  );
}

/**
 * SPEC §2 Order history: the bought items with a download for each item of a successful order.
 * An owned prompt can also generate images (format and size from the settings); the generated
 * images follow the orders, each with its download (issue 29).
 */
export function OrderHistory() {
  const { t } = useTranslation();
  const orders = useOrders();
  // The requests show beside their items; without them (an error) the history still shows.
  const refunds = useRefundRequests();
  const requests = (refunds.data ?? []).filter((r) => r.role === 'buyer');

  if (orders.isPending) return <SkeletonRows rowClassName="skeleton" />;
  if (orders.isError) return <LoadFailed message={orders.error.message || t('orders.load_failed')} onRetry={() => orders.refetch()} />;
  if (!orders.data.length)
    return (
      <>
        <EmptyState title={t('orders.empty')}>
          <Link className="button primary" to="/products">
            {t('orders.browse')}
          </Link>
        </EmptyState>
        <GeneratedImages />
      </>
    );
  return (
    <>
      <ul className="order-list" aria-label={t('dashboard.order_history')}>
        {orders.data.map((order) => (
          <OrderCard key={order.id} order={order} requests={requests} />
        ))}
      </ul>
      <GeneratedImages />
    </>
  );
}
