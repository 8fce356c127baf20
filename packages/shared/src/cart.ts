import { z } from 'zod';
import { productType } from './catalog';
import { licenceTier, productLicence } from './licences';

/** POST /api/cart/items. */
export const addCartItemInput = z.object({
  product_type: productType,
  product_id: z.coerce.number({ error: 'Please choose a product.' }).int().positive('Please choose a product.'),
  /** Issue 34: the licence to buy it at (commercial when absent); adding the work again changes it. */
  licence_tier: licenceTier.optional(),
});
export type AddCartItemInput = z.infer<typeof addCartItemInput>;

/** One cart line; `price` in the display currency. */
export const cartItem = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  product_type: productType,
  title: z.string(),
  slug: z.string(),
  imageUrl: z.string().nullable(),
  /** What the line costs now: after a running sale or the discount code given (issue 34). */
  price: z.number(),
  /** The list price, only when `price` is discounted. */
  list_price: z.number().optional(),
  /** Issue 34: the licence the line is bought at; `price` is that licence's. */
  licence_tier: licenceTier.optional(),
  /** The licences the work is offered with, at their list prices (a line changes licence by adding the work again). */
  licences: z.array(productLicence).optional(),
});
export type CartItem = z.infer<typeof cartItem>;

/** GET /api/cart and the answer of every cart change. */
export const cart = z.object({
  items: z.array(cartItem),
  total: z.number(),
  currency: z.string(),
  currencySymbol: z.string(),
});
export type Cart = z.infer<typeof cart>;

/** POST /api/cart/checkout: what paying from the balance would do. */
export const checkoutSummary = z.object({
  items: z.array(cartItem),
  total: z.number(),
  balance: z.number(),
  /** How much is missing (0 when the balance covers the total), in the display currency. */
  shortfall: z.number(),
  can_pay: z.boolean(),
  currency: z.string(),
  currencySymbol: z.string(),
});
export type CheckoutSummary = z.infer<typeof checkoutSummary>;
