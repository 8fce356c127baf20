import { OrderHistory } from '../../features/orders';

export function Component() {
  return <OrderHistory />;
}
