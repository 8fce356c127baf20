import { PaymentSuccess } from '../../features/deposits';

export function Component() {
  return <PaymentSuccess />;
}
