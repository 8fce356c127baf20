import { CatalogAdmin } from '../../features/admin';

/** Back office: the catalogue (shown inside the staff-only /admin layout). */
export function Component() {
  return <CatalogAdmin />;
}
