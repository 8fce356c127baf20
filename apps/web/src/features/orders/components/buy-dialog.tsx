import type { LicenceTier, Product, ProductLicence } from '@atelier/shared';
import { useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { InlineError } from '../../../components/ui/field';
import { Modal, ModalCloseRow } from '../../../components/ui/modal';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { Price, ProductPrice } from '../../catalog';
import { useMoney } from '../../currency';
import { addFundsUrl, useBalance, useInternalCurrencyName } from '../../deposits';
import { DiscountCodeField, fetchPricePreview } from '../../discounts';
import { TaxBreakdown } from '../../tax';
import { answerLost, purchaseCalls, useBuyProduct, useLookUpPurchase } from '../api/orders';

type Props = {
  product: Pick<Product, 'id' | 'title' | 'product_type' | 'price' | 'currency' | 'currencySymbol' | 'sale'> & { licences?: ProductLicence[] };
  onClose: () => void;
};

/**
 * Buy now: the price, the balance and the balance after the purchase, then pay. When the balance is
 * short it offers Add funds for the shortfall, which brings the buyer back to this page.
 */
export function BuyDialog({ product, onClose }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const location = useLocation();
  const balance = useBalance();
  const buy = useBuyProduct();
  const currencyName = useInternalCurrencyName();
  const [error, setError] = useState<string | null>(null);
  const [owned, setOwned] = useState(false);
  const key = useRef(newIdempotencyKey());
  const lookUp = useLookUpPurchase();

  const money = useMoney();
  const priced = { code: product.currency, symbol: product.currencySymbol };
  // Issue 34: the licence picked (commercial, the work's price, unless the buyer picks another one offered).
  const licences = product.licences ?? [];
  const [tier, setTier] = useState<LicenceTier>('commercial');
  const listPrice = licences.find((l) => l.tier === tier)?.price ?? product.price;
  // A running sale's price of another licence: the server prices it (the sale's rule on that licence's price).
  const [tierSale, setTierSale] = useState<{ tier: LicenceTier; price: number } | null>(null);
  // Issue 34: a code's preview (the server's price with it), else a running sale, else the list price.
  const [code, setCode] = useState<{ code: string; price: number; off: number } | null>(null);
  const salePrice = tier === 'commercial' ? product.sale?.price : tierSale?.tier === tier ? tierSale.price : undefined;
  const price = code?.price ?? salePrice ?? listPrice;
  async function applyCode(given: string, forTier: LicenceTier = tier) {
    const preview = await fetchPricePreview(product.id, given, product.currency, forTier === 'commercial' ? undefined : forTier);
    const applied = preview.discount && !preview.discount.automatic ? preview.discount.code : null;
    setCode({ code: applied ?? given.toUpperCase(), price: preview.price, off: Math.round((preview.list_price - preview.price) * 100) / 100 });
  }
  async function chooseTier(next: LicenceTier) {
    setTier(next);
    setError(null);
    try {
      if (code) await applyCode(code.code, next);
      else if (product.sale && next !== 'commercial') {
        const preview = await fetchPricePreview(product.id, undefined, product.currency, next);
        setTierSale({ tier: next, price: preview.price });
      }
    } catch (err) {
      setCode(null);
      setError(serverMessageOr(err, t('discount.failed')));
    }
  }
  const inBalance = balance.data ? { code: balance.data.currency, symbol: balance.data.currencySymbol } : priced;
  const amount = balance.data?.amount ?? 0;
  const after = Math.round((amount - price) * 100) / 100;
  const shortfall = Math.round((price - amount) * 100) / 100;
  const short = balance.data !== undefined && shortfall > 0;

  async function confirm() {
    setError(null);
    try {
      await buy.mutateAsync({
        productId: product.id,
        productType: product.product_type,
        idempotencyKey: key.current,
        discountCode: code?.code,
        licenceTier: licences.length > 1 ? tier : undefined,
      });
      toast.success(t('buy.bought', { title: product.title }));
      onClose();
    } catch (err) {
      if (answerLost(err)) return settleLostAnswer();
      key.current = newIdempotencyKey();
      const fallback = t(purchaseCalls[product.product_type].failed);
      const message = serverMessageOr(err, fallback);
      setError(message);
      void balance.refetch();
    }
  }

  /**
   * Issue 31: the call may have reached the server though its answer did not come back. Ask by the
   * key what became of it: bought (you own it) or not charged. If even that fails, the key is kept,
   * so another try returns the first purchase's answer instead of charging twice.
   */
  async function settleLostAnswer() {
    try {
      const answer = await lookUp.mutateAsync(key.current);
      key.current = newIdempotencyKey();
      if (answer.outcome === 'bought') setOwned(true);
      else setError(t('buy.lost_not_charged'));
    } catch {
      setError(t('buy.lost_unknown'));
    }
    void balance.refetch();
  }

  if (owned)
    return (
      <Modal title={t('buy.confirm_title')} onClose={onClose} className="buy-dialog">
        <p className="product-name">{product.title}</p>
        <div className="purchase-owned" role="status" data-testid="buy-owned">
          <strong>{t('buy.you_own_it')}</strong>
          <p>{t('buy.lost_owned')}</p>
        </div>
        <ModalCloseRow label={t('buy.close')} onClose={onClose} className="buy-dialog-actions" autoFocus />
      </Modal>
    );

  return (
    <Modal title={t('buy.confirm_title')} onClose={onClose} className="buy-dialog">
      <p className="product-name">{product.title}</p>
      {licences.length > 1 && (
        <fieldset className="licence-picker" data-testid="licence-picker">
          <legend>{t('licences.legend')}</legend>
          {licences.map((l) => (
            <label key={l.tier} className="licence-option">
              <input type="radio" name="licence_tier" value={l.tier} checked={tier === l.tier} onChange={() => void chooseTier(l.tier)} />
              <span className="licence-name">{t(`licences.${l.tier}`)}</span>
              <Price amount={l.price} currency={priced} />
              <span className="muted small">{t(`licences.${l.tier}_summary`)}</span>
              <a href={`/licences/${l.tier}`} target="_blank" rel="noopener" className="small">
                {t('licences.terms_link')}
              </a>
            </label>
          ))}
        </fieldset>
      )}
      <dl>
        <div className="row">
          <dt>{t('buy.price')}</dt>
          <dd data-testid="buy-price">
            {price < listPrice ? (
              <ProductPrice product={{ ...product, price: listPrice, sale: { price, ends_at: null } }} />
            ) : (
              <Price amount={listPrice} currency={priced} />
            )}
          </dd>
        </div>
        <TaxBreakdown price={tier === 'commercial' ? product.price : listPrice} currency={priced} />
        <div className="row">
          <dt>{t('balance.label', { name: currencyName })}</dt>
          <dd data-testid="buy-balance">{balance.data ? <Price amount={amount} currency={inBalance} /> : '…'}</dd>
        </div>
        {balance.data && !short && (
          <div className="row">
            <dt>{t('buy.balance_after')}</dt>
            <dd data-testid="buy-balance-after">
              <Price amount={after} currency={inBalance} />
            </dd>
          </div>
        )}
      </dl>
      <DiscountCodeField
        applied={code ? { code: code.code, note: t('discount.applied', { code: code.code, amount: money.format(code.off, priced) }) } : null}
        apply={applyCode}
        onRemove={() => setCode(null)}
      />
      {short && (
        <p className="short" role="status">
          {t('buy.short', { amount: money.format(shortfall, inBalance) })}
        </p>
      )}
      <InlineError message={balance.error?.message} />
      <InlineError message={error} />
      <div className="buy-dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('buy.cancel')}
        </button>
        {short ? (
          <Link className="button primary" to={addFundsUrl(shortfall, balance.data?.currency ?? null, location.pathname)}>
            {t('buy.add_funds', { amount: money.format(shortfall, inBalance) })}
          </Link>
        ) : (
          <button type="button" className="button primary" onClick={confirm} disabled={!balance.data || buy.isPending || lookUp.isPending} data-autofocus>
            {buy.isPending ? t('auth.processing') : t('buy.confirm', { amount: money.format(price, priced) })}
          </button>
        )}
      </div>
    </Modal>
  );
}
