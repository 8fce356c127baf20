import { DepositHistory } from '../../features/deposits/components/deposit-history';

export function Component() {
  return <DepositHistory />;
}
