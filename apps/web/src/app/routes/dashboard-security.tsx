import { SecurityTab } from '../../features/security';

export function Component() {
  return <SecurityTab />;
}
