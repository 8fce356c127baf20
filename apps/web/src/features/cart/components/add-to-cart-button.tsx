import type { ProductType } from '@atelier/shared';
import { Link } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { failureMessage } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAddToCart, useCart } from '../api/cart';

/** Add to cart on a product or pack page; once the product is in the cart it links there instead. */
export function AddToCartButton({ productId, productType }: { productId: number; productType: ProductType }) {
  const { t } = useTranslation();
  const toast = useToast();
  const cart = useCart();
  const add = useAddToCart();
  const inCart = cart.data?.items.some((item) => item.product_id === productId);

  if (inCart)
    return (
      <Link className="button" to="/cart">
        {t('cart.in_cart')}
      </Link>
    );

  async function addItem() {
    try {
      await add.mutateAsync({ product_type: productType, product_id: productId });
      toast.success(t('cart.added'));
    } catch (err) {
      toast.error(failureMessage(err, t('cart.add_failed'), t('cart.add_error')));
    }
  }

  return (
    <button type="button" className="button" onClick={addItem} disabled={add.isPending}>
      {add.isPending ? t('auth.processing') : t('cart.add')}
    </button>
  );
}
