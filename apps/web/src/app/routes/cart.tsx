import { CartView } from '../../features/cart/components/cart-view';

export function Component() {
  return <CartView />;
}
