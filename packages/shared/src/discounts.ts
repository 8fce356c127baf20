import { z } from 'zod';
import { currencyParam } from './catalog';
import { MAX_ID, text } from './fields';
import { licenceTier } from './licences';

/**
 * Discount codes and sales (issue 34). A creator's code covers their own works (`product_ids`, empty:
 * all of them); `automatic` applies without a code during its window (a sale). Percent: 1–90;
 * fixed: EUR cents below the price of each work it covers. A discounted price never drops below
 * DISCOUNT_FLOOR_MINOR.
 */

/** A sale or a code never takes a price below 0.50 €. */
export const DISCOUNT_FLOOR_MINOR = 50;
export const DISCOUNT_KINDS = ['percent', 'fixed'] as const;
export const discountKind = z.enum(DISCOUNT_KINDS, { error: 'The kind must be percent or fixed.' });

const CODE_MESSAGE = 'A code has 4 to 32 letters A–Z, digits 0–9 or dashes.';

/** A code as typed: trimmed and put in capitals, then 4–32 of A–Z, 0–9 and -. */
export const discountCodeField = text('code', { error: CODE_MESSAGE })
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9-]{4,32}$/, CODE_MESSAGE));

/** A code given at checkout: any text up to 64 characters (an unknown one is a 422 that says so). */
export const discountCodeInput = text('discount code')
  .trim()
  .max(64, 'A discount code has at most 32 characters.')
  .transform((s) => (s === '' ? undefined : s.toUpperCase()));

const when = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `The ${label} must be a date and time such as 2026-12-24T18:00:00Z.` })
    // PostgreSQL has no year 0, and no code runs for centuries.
    .refine((s) => {
      const year = new Date(s).getUTCFullYear();
      return year >= 2000 && year <= 2200;
    }, `The ${label} must be between the years 2000 and 2200.`)
    .transform((s) => new Date(s).toISOString());

const idList = z
  .array(z.coerce.number({ error: 'Each work is named by its id.' }).int('Each work is named by its id.').min(1).max(MAX_ID), {
    error: 'Please list the works by their ids.',
  })
  .max(200, 'A code may name at most 200 works; leave the list empty for all of them.');

export const createDiscountInput = z
  .object({
    code: discountCodeField,
    kind: discountKind,
    value: z
      .number({ error: 'The value must be a whole number.' })
      .int('The value must be a whole number: percent, or cents of EUR.')
      .min(1, 'The value must be at least 1.')
      .max(100_000_000, 'The value is too large.'),
    product_ids: idList.default([]),
    starts_at: when('start').nullish(),
    ends_at: when('end').nullish(),
    max_uses: z
      .number({ error: 'The number of uses must be a whole number.' })
      .int('The number of uses must be a whole number.')
      .min(1, 'A code may be used at least once.')
      .max(1_000_000, 'A code may be used at most 1000000 times.')
      .nullish(),
    automatic: z.boolean({ error: 'Automatic is true or false.' }).default(false),
  })
  .superRefine((d, ctx) => {
    if (d.kind === 'percent' && d.value > 90) ctx.addIssue({ code: 'custom', path: ['value'], message: 'A percent discount is 1 to 90 %.' });
    if (d.starts_at && d.ends_at && d.starts_at >= d.ends_at) ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'The end must be after the start.' });
  });
export type CreateDiscountInput = z.infer<typeof createDiscountInput>;
export type CreateDiscountForm = z.input<typeof createDiscountInput>;

/** Pause or resume a code, or change its dates (null clears a date). */
export const updateDiscountInput = z
  .object({
    paused: z.boolean({ error: 'Paused is true or false.' }).optional(),
    starts_at: when('start').nullable().optional(),
    ends_at: when('end').nullable().optional(),
  })
  .refine((d) => d.paused !== undefined || d.starts_at !== undefined || d.ends_at !== undefined, {
    message: 'Send paused, starts_at or ends_at to change.',
  });
export type UpdateDiscountInput = z.infer<typeof updateDiscountInput>;

export const discountParams = z.object({
  id: z.coerce
    .number({ error: 'The discount must be a whole number.' })
    .int('The discount must be a whole number.')
    .min(1, 'The discount must be a whole number.')
    .max(MAX_ID, 'The discount must be a whole number.'),
});

/** A discount as its creator (or staff, for a platform code) sees it. */
export const discount = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: discountKind,
  value: z.number().int(),
  product_ids: z.array(z.number().int()),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  /** Orders that used it. */
  uses: z.number().int(),
  automatic: z.boolean(),
  paused: z.boolean(),
  /** active | scheduled | expired | paused | used_up. */
  state: z.enum(['active', 'scheduled', 'expired', 'paused', 'used_up']),
  /** A platform code (staff, for platform-owned works). */
  platform: z.boolean(),
  created_at: z.string(),
});
export type Discount = z.infer<typeof discount>;

export const discountAnswer = z.object({ discount });
export const discountList = z.object({ discounts: z.array(discount) });

/** GET /products/{id}/price?discount_code=&licence_tier= */
export const priceQuery = z.object({
  discount_code: discountCodeInput.optional(),
  currency: currencyParam,
  /** Issue 34: the price of this licence (commercial when absent); one the work is not offered with is a 422. */
  licence_tier: licenceTier.optional(),
});
export const pricePreview = z.object({
  product_id: z.number().int(),
  /** EUR cents. */
  list_price_minor: z.number().int(),
  price_minor: z.number().int(),
  /** In the display currency. */
  list_price: z.number(),
  price: z.number(),
  currency: z.string(),
  discount: z
    .object({
      code: z.string(),
      automatic: z.boolean(),
      kind: discountKind,
      value: z.number().int(),
      amount_minor: z.number().int(),
      ends_at: z.string().nullable(),
    })
    .nullable(),
});
export type PricePreview = z.infer<typeof pricePreview>;

/** A sale on a product card or page: the price after it and when it ends. */
export const productSale = z.object({ price: z.number(), ends_at: z.string().nullable() });
export type ProductSale = z.infer<typeof productSale>;
