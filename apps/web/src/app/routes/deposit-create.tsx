import { AddFundsForm } from '../../features/deposits';

export function Component() {
  return <AddFundsForm />;
}
