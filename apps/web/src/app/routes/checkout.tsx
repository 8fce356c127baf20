import { CheckoutView } from '../../features/cart/components/checkout-view';

export function Component() {
  return <CheckoutView />;
}
