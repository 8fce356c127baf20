import { SiteSettings } from '../../features/admin';

/** Back office: the site settings (shown inside the staff-only /admin layout). */
export function Component() {
  return <SiteSettings />;
}
