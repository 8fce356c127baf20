import { PaymentFailed } from '../../features/deposits';

export function Component() {
  return <PaymentFailed />;
}
