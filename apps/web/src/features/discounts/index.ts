/** Discount codes and sales (issue 34): the creator's tab, the code field of the buy dialog and the checkout, the price preview. */
export { fetchPricePreview } from './api/discounts';
export { DiscountCodeField } from './components/discount-code-field';
export { DiscountsTab } from './components/discounts-tab';
