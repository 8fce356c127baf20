import { AuditLog } from '../../features/admin';

/** Back office: The audit log (shown inside the staff-only /admin layout). */
export function Component() {
  return <AuditLog />;
}
