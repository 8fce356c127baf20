import { BundlesTab } from '../../features/bundles';

/** A creator's bundle proposals (issue 34). */
export function Component() {
  return <BundlesTab />;
}
