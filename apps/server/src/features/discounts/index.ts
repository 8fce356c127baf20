/** Discount codes and sales (issue 34): the routes, and the rules a purchase and a product card use. */
export { discountsAdminRoutes } from './discounts.admin-routes';
export { discountsRoutes } from './discounts.routes';
export {
  type AppliedDiscount,
  CODE_MESSAGES,
  discountedPrice,
  discountLine,
  discountsOfOrders,
  type PricedLine,
  priceLines,
  productSaleSql,
  recordOrderDiscounts,
  runningSaleOfOwnerSql,
  takeUses,
} from './pricing';
