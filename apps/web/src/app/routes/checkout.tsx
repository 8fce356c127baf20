import { CheckoutView } from '../../features/cart';

export function Component() {
  return <CheckoutView />;
}
