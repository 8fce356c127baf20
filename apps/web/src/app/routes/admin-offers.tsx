import { ReviewQueue } from '../../features/admin';

/** Back office: The review queue (shown inside the staff-only /admin layout). */
export function Component() {
  return <ReviewQueue />;
}
