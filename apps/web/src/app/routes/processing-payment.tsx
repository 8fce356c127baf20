import { ProcessingPayment } from '../../features/deposits/components/processing-payment';

export function Component() {
  return <ProcessingPayment />;
}
