import { CreatorRefunds } from '../../features/refunds';

/** The creator's refund requests: answer once, or accept. */
export function Component() {
  return <CreatorRefunds />;
}
