import { CartView } from '../../features/cart';

export function Component() {
  return <CartView />;
}
