import type { Product } from '@atelier/shared';
import { AddToCartButton } from '../../features/cart';
import { ContactCreatorButton } from '../../features/chat';
import { PurchaseActions } from '../../features/orders';
import { ReportLink } from '../../features/reports';

/** The buy box of the product and pack pages: orders' Buy now / 'You own this' with cart's Add to cart, and chat's Contact the creator. */
export function productActions(product: Product) {
  return (
    <>
      <PurchaseActions product={product}>
        <AddToCartButton productId={product.id} productType={product.product_type} />
      </PurchaseActions>
      <ContactCreatorButton target={{ product_id: product.id }} authorNickname={product.authorNickname} />
      <ReportLink subjectType="product" subjectId={product.id} title={product.title} />
    </>
  );
}
