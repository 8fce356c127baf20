import type { Product } from '@atelier/shared';
import { AddToCartButton } from '../../features/cart/components/add-to-cart-button';
import { PurchaseActions } from '../../features/orders/components/purchase-actions';

/** The buy box of the product and pack pages: orders' Buy now / 'You own this' with cart's Add to cart. */
export function productActions(product: Product) {
  return (
    <PurchaseActions product={product}>
      <AddToCartButton productId={product.id} productType={product.product_type} />
    </PurchaseActions>
  );
}
