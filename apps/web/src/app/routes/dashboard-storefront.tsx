import { StorefrontEditor } from '../../features/storefronts';

/** A creator's storefront: banner, headline, links and featured works (issue 34). */
export function Component() {
  return <StorefrontEditor />;
}
