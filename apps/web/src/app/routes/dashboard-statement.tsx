import { Statement } from '../../features/deposits';

export function Component() {
  return <Statement />;
}
