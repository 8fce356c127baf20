import { ProcessingPayment } from '../../features/deposits';

export function Component() {
  return <ProcessingPayment />;
}
