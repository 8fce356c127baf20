import type { CartItem, LicenceTier } from '@atelier/shared';
import { Link } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { failureMessage, serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price, ProductPrice } from '../../catalog';
import type { MoneyIn } from '../../currency';
import { useBalance, useInternalCurrencyName } from '../../deposits';
import { useAddToCart, useCart, useRemoveFromCart } from '../api/cart';
import './cart.css';

export const productPath = (item: Pick<CartItem, 'product_type' | 'slug'>) =>
  item.product_type === 'pack' ? `/packs/${encodeURIComponent(item.slug)}` : `/products/${encodeURIComponent(item.slug)}`;

export function CartLine({
  item,
  currency,
  onRemove,
  removing,
  onLicence,
}: {
  item: CartItem;
  currency: MoneyIn;
  onRemove?: () => void;
  removing?: boolean;
  /** Issue 34: the buyer picks another licence for the line (the cart page); without it the licence is only shown. */
  onLicence?: (tier: LicenceTier) => void;
}) {
  const { t } = useTranslation();
  const licences = item.licences ?? [];
  const tier = item.licence_tier ?? 'commercial';
  const typeKey = `products.type_${item.product_type}`;
  return (
    <li className="cart-line" data-testid="cart-line">
      {item.imageUrl ? (
        <img src={item.imageUrl} alt="" width={72} height={72} loading="lazy" />
      ) : (
        <span className="cart-thumb" aria-hidden="true">
          {item.title.slice(0, 1)}
        </span>
      )}
      <div>
        <Link className="cart-line-title" to={productPath(item)}>
          {item.title}
        </Link>
        <span className="pill">{t(typeKey)}</span>
        {onLicence && licences.length > 1 ? (
          <select
            className="cart-licence"
            value={tier}
            aria-label={t('licences.cart_label', { title: item.title })}
            onChange={(e) => onLicence(e.target.value as LicenceTier)}
          >
            {licences.map((l) => (
              <option key={l.tier} value={l.tier}>
                {t(`licences.${l.tier}`)}
              </option>
            ))}
          </select>
        ) : (
          licences.length > 1 && <span className="pill">{t(`licences.${tier}`)}</span>
        )}
      </div>
      <div className="cart-line-side">
        {item.list_price !== undefined ? (
          <ProductPrice
            product={{
              price: item.list_price,
              currency: currency.code,
              currencySymbol: currency.symbol ?? currency.code,
              sale: { price: item.price, ends_at: null },
            }}
          />
        ) : (
          <Price amount={item.price} currency={currency} />
        )}
        {onRemove && (
          <button type="button" className="link-button" onClick={onRemove} disabled={removing} aria-label={t('cart.remove_item', { title: item.title })}>
            {t('cart.remove')}
          </button>
        )}
      </div>
    </li>
  );
}

export function CartSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="cart-skeleton" role="status" aria-label={t('app.loading')}>
      <div className="skeleton" />
      <div className="skeleton" />
    </div>
  );
}

export function EmptyCart() {
  const { t } = useTranslation();
  return (
    <div className="state-block">
      <p className="state-title">{t('cart.empty')}</p>
      <p className="muted">{t('cart.empty_hint')}</p>
      <Link className="button primary" to="/products">
        {t('products.title')}
      </Link>
    </div>
  );
}

/** SPEC §2 cart: the items with remove, the total, the balance, and the way to checkout. */
export function CartView() {
  const { t } = useTranslation();
  const toast = useToast();
  const cart = useCart();
  const balance = useBalance();
  const remove = useRemoveFromCart();
  const add = useAddToCart();
  const currencyName = useInternalCurrencyName();

  async function removeLine(item: CartItem) {
    try {
      await remove.mutateAsync(item.id);
    } catch (err) {
      toast.error(failureMessage(err, t('cart.remove_failed'), t('cart.remove_error')));
    }
  }

  /** Issue 34: the line's licence changes by adding the work again with the licence picked. */
  async function changeLicence(item: CartItem, licenceTier: LicenceTier) {
    try {
      await add.mutateAsync({ product_id: item.product_id, product_type: item.product_type, licence_tier: licenceTier });
    } catch (err) {
      toast.error(serverMessageOr(err, t('licences.change_failed')));
    }
  }

  let body: React.ReactNode;
  if (cart.isPending) body = <CartSkeleton />;
  else if (cart.isError)
    body = (
      <div className="state-block" role="alert">
        <p className="state-title">{failureMessage(cart.error, t('cart.fetch_failed'), t('cart.fetch_error'))}</p>
        <button type="button" className="button" onClick={() => cart.refetch()}>
          {t('products.retry')}
        </button>
      </div>
    );
  else if (!cart.data.items.length) body = <EmptyCart />;
  else {
    const data = cart.data;
    body = (
      <div className="cart-layout">
        <ul className="cart-lines" aria-label={t('nav.cart')}>
          {data.items.map((item) => (
            <CartLine
              key={item.id}
              item={item}
              currency={{ code: data.currency, symbol: data.currencySymbol }}
              onRemove={() => removeLine(item)}
              removing={remove.isPending}
              onLicence={(tier) => void changeLicence(item, tier)}
            />
          ))}
        </ul>
        <aside className="cart-summary" aria-label={t('cart.total')}>
          <dl className="summary-row summary-total">
            <dt>{t('cart.total')}</dt>
            <dd>
              <Price amount={data.total} currency={{ code: data.currency, symbol: data.currencySymbol }} />
            </dd>
          </dl>
          <dl className="summary-row">
            <dt>{t('balance.label', { name: currencyName })}</dt>
            <dd data-testid="cart-balance">
              {balance.data ? <Price amount={balance.data.amount} currency={{ code: balance.data.currency, symbol: balance.data.currencySymbol }} /> : '…'}
            </dd>
          </dl>
          <Link className="button primary" to="/checkout">
            {t('cart.checkout')}
          </Link>
        </aside>
      </div>
    );
  }

  return (
    <section className="cart-page">
      <h1>
        {t('nav.cart')}
        {cart.data?.items.length ? <span className="muted small"> · {t('cart.items_count', { count: cart.data.items.length })}</span> : null}
      </h1>
      {body}
    </section>
  );
}
