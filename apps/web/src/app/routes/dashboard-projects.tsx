import { MyProjects } from '../../features/offers';

/** SPEC §2 dashboard, My projects tab: the creator's offers. */
export function Component() {
  return <MyProjects />;
}
