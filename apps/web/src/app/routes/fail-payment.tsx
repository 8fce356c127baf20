import { PaymentFailed } from '../../features/deposits/components/payment-result';

export function Component() {
  return <PaymentFailed />;
}
