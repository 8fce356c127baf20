import { PayoutsQueue } from '../../features/admin';

/** Back office: Payouts (shown inside the staff-only /admin layout). */
export function Component() {
  return <PayoutsQueue />;
}
