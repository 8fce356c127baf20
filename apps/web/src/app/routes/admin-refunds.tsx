import { RefundsQueue } from '../../features/admin';

/** Back office: Refunds (shown inside the staff-only /admin layout). */
export function Component() {
  return <RefundsQueue />;
}
