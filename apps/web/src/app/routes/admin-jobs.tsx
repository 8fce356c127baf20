import { JobsQueue } from '../../features/admin';

/** Back office: the job queue (shown inside the staff-only /admin layout). */
export function Component() {
  return <JobsQueue />;
}
