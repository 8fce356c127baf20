import { ReportsQueue } from '../../features/reports';

/** Back office: Reports (notice and action, issue 33), inside the staff-only /admin layout. */
export function Component() {
  return <ReportsQueue />;
}
