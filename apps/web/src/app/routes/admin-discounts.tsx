import { DiscountsTab } from '../../features/discounts';

/** The back office's platform codes and sales for platform-owned works (issue 34). */
export function Component() {
  return <DiscountsTab scope="platform" />;
}
