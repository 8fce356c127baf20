import { PaymentSuccess } from '../../features/deposits/components/payment-result';

export function Component() {
  return <PaymentSuccess />;
}
