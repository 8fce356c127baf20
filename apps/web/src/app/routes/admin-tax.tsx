import { TaxAdmin } from '../../features/tax';

/** Back office: Tax (VAT rates and the One-Stop Shop report, issue 33), inside the staff-only /admin layout. */
export function Component() {
  return <TaxAdmin />;
}
