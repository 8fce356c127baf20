import { AddFundsForm } from '../../features/deposits/components/add-funds-form';

export function Component() {
  return <AddFundsForm />;
}
