import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { Price } from '../../catalog';
import { useMoney, useSelectedCurrency } from '../../currency';
import { addFundsUrl, useInternalCurrencyName } from '../../deposits';
import { DiscountCodeField } from '../../discounts';
import { cartKeys, checkoutSummaryWith, useCheckoutSummary, usePurchaseCart } from '../api/cart';
import { CartLine, CartSkeleton, EmptyCart } from './cart-view';
import './cart.css';
import { InlineError } from '../../../components/ui/field';
import { TaxBreakdown } from '../../tax';

/**
 * SPEC §2 checkout: what paying from the balance does (total, balance, balance after), then pay; or,
 * when the balance is short, add the shortfall and come back here.
 */
export function CheckoutView() {
  const { t } = useTranslation();
  const money = useMoney();
  const toast = useToast();
  const navigate = useNavigate();
  // Issue 34: a discount code, once the server priced the cart with it.
  const [code, setCode] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  const summary = useCheckoutSummary(code);
  const purchase = usePurchaseCart();
  async function applyCode(given: string) {
    const priced = await checkoutSummaryWith(given, currency.code);
    const applied = given.toUpperCase();
    queryClient.setQueryData(cartKeys.checkout(currency.code, applied), priced);
    setCode(applied);
  }
  const currencyName = useInternalCurrencyName();
  const [error, setError] = useState<string | null>(null);
  // One key per attempt on this page: a double click or a retried request is charged once.
  const key = useRef(newIdempotencyKey());

  async function pay() {
    setError(null);
    try {
      await purchase.mutateAsync({ idempotencyKey: key.current, discountCode: code });
      toast.success(t('cart.paid'));
      navigate('/dashboard/orders');
    } catch (err) {
      key.current = newIdempotencyKey();
      const message = failureMessage(err, t('cart.purchase_error'), t('cart.purchase_error'));
      setError(message);
      toast.error(message);
      void summary.refetch();
    }
  }

  let body: React.ReactNode;
  if (summary.isPending) body = <CartSkeleton />;
  else if (summary.isError) {
    const emptyCart = summary.error instanceof ApiError && summary.error.status === 422 && Boolean(summary.error.field('cart'));
    body = emptyCart ? (
      <EmptyCart />
    ) : (
      <div className="state-block" role="alert">
        <p className="state-title">{failureMessage(summary.error, t('cart.checkout_error'), t('cart.checkout_error'))}</p>
        <button type="button" className="button" onClick={() => summary.refetch()}>
          {t('products.retry')}
        </button>
      </div>
    );
  } else {
    const s = summary.data;
    const after = Math.round((s.balance - s.total) * 100) / 100;
    body = (
      <div className="cart-layout">
        <ul className="cart-lines" aria-label={t('nav.cart')}>
          {s.items.map((item) => (
            <CartLine key={item.id} item={item} currency={{ code: s.currency, symbol: s.currencySymbol }} />
          ))}
        </ul>
        <aside className="cart-summary" aria-label={t('cart.checkout_title')}>
          <DiscountCodeField
            applied={
              code
                ? {
                    code,
                    note: t('discount.applied', {
                      code,
                      amount: money.format(Math.round(s.items.reduce((sum, i) => sum + (i.list_price ?? i.price) - i.price, 0) * 100) / 100, {
                        code: s.currency,
                        symbol: s.currencySymbol,
                      }),
                    }),
                  }
                : null
            }
            apply={applyCode}
            onRemove={() => setCode(null)}
          />
          <dl className="summary-row summary-total">
            <dt>{t('cart.total')}</dt>
            <dd>
              <Price amount={s.total} currency={{ code: s.currency, symbol: s.currencySymbol }} />
            </dd>
          </dl>
          <dl className="summary-row tax-breakdown">
            <TaxBreakdown price={s.total} currency={{ code: s.currency, symbol: s.currencySymbol }} />
          </dl>
          <dl className="summary-row">
            <dt>{t('balance.label', { name: currencyName })}</dt>
            <dd data-testid="checkout-balance">
              <Price amount={s.balance} currency={{ code: s.currency, symbol: s.currencySymbol }} />
            </dd>
          </dl>
          {s.can_pay ? (
            <>
              <dl className="summary-row">
                <dt>{t('cart.balance_after')}</dt>
                <dd>
                  <Price amount={after} currency={{ code: s.currency, symbol: s.currencySymbol }} />
                </dd>
              </dl>
              <button type="button" className="button primary" onClick={pay} disabled={purchase.isPending}>
                {purchase.isPending ? t('auth.processing') : t('cart.pay', { amount: money.format(s.total, { code: s.currency, symbol: s.currencySymbol }) })}
              </button>
            </>
          ) : (
            <>
              <p className="summary-short" role="status">
                {t('cart.shortfall', { amount: money.format(s.shortfall, { code: s.currency, symbol: s.currencySymbol }) })}
              </p>
              <Link className="button primary" to={addFundsUrl(s.shortfall, s.currency, '/checkout')}>
                {t('cart.add_shortfall', { amount: money.format(s.shortfall, { code: s.currency, symbol: s.currencySymbol }) })}
              </Link>
            </>
          )}
          <InlineError message={error} />
          <Link className="link-button" to="/cart">
            {t('cart.back_to_cart')}
          </Link>
        </aside>
      </div>
    );
  }

  return (
    <section className="cart-page">
      <h1>{t('cart.checkout_title')}</h1>
      {body}
    </section>
  );
}
