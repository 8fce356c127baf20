import { useCart } from './cart';

/** The header badge: the number of items in the cart (GET /api/cart), undefined for guests or while unknown. */
export function useCartCount(enabled: boolean): number | undefined {
  const cart = useCart(enabled);
  return enabled && cart.data ? cart.data.items.length : undefined;
}
