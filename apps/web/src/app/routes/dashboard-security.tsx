import { NotificationPreferencesPanel } from '../../features/notifications';
import { SecurityTab } from '../../features/security';

/** Security: sign-in, sessions and second factors, then what the user is told and how (issue 31). */
export function Component() {
  return (
    <>
      <SecurityTab />
      <NotificationPreferencesPanel />
    </>
  );
}
