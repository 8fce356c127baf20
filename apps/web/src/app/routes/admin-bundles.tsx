import { BundleReview } from '../../features/bundles';

/** The back office's queue of creator bundles to approve or reject (issue 34). */
export function Component() {
  return <BundleReview />;
}
