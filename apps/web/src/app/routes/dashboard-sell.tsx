import { MyProjects } from '../../features/offers';

/** Issue 31: My projects for anyone, the way in for a buyer who wants to offer a first work. */
export function Component() {
  return <MyProjects />;
}
