import { Messages } from '../../features/admin';

/** Back office: contact-form messages (shown inside the staff-only /admin layout). */
export function Component() {
  return <Messages />;
}
