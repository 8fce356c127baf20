import { EarningsTab } from '../../features/earnings';

/** Issue 19: the creator's earnings and withdrawals. */
export function Component() {
  return <EarningsTab />;
}
