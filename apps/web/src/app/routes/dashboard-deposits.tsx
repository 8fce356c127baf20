import { DepositHistory } from '../../features/deposits';

export function Component() {
  return <DepositHistory />;
}
