import { OrderHistory } from '../../features/orders/components/order-history';

export function Component() {
  return <OrderHistory />;
}
