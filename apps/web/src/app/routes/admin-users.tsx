import { UsersAdmin } from '../../features/admin';

/** Back office: Users (shown inside the staff-only /admin layout). */
export function Component() {
  return <UsersAdmin />;
}
