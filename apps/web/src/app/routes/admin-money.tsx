import { Money } from '../../features/admin';

/** Back office: Money: ledger, journal, reconciliation and adjustments (shown inside the staff-only /admin layout). */
export function Component() {
  return <Money />;
}
