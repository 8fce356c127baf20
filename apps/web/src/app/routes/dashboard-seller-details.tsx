import { SellerDetailsForm } from '../../features/sellers';

/** Trader details (issue 33): asked before a first listing or withdrawal. */
export function Component() {
  return <SellerDetailsForm />;
}
