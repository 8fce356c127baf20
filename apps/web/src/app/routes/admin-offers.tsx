import { ReviewQueue } from '../../features/admin';
import { VersionsReview } from '../../features/versions';

/** Back office: The review queue (shown inside the staff-only /admin layout): offers, then new versions of listed works (issue 34). */
export function Component() {
  return (
    <>
      <ReviewQueue />
      <VersionsReview />
    </>
  );
}
