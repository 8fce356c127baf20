import { DiscountsTab } from '../../features/discounts';

/** A creator's discount codes and sales (issue 34). */
export function Component() {
  return <DiscountsTab />;
}
