import { z } from 'zod';
import { text } from './fields';
import { isCountryCode } from './sellers';

/** VAT, invoices and the One-Stop Shop report (issue 33). */

/**
 * The VAT inside a VAT-inclusive price: gross − round(gross × 10000 / (10000 + rate)), the net rounded
 * half up (19.00 € at 19 %: net 15.97, VAT 3.03). Integer arithmetic only; rate in basis points. The
 * server carves every sale with it; the buy dialog uses it to show the same split before the purchase.
 */
export function vatInside(grossMinor: number, rateBp: number): number {
  if (rateBp <= 0 || grossMinor <= 0) return 0;
  const base = 10000 + rateBp;
  const net = Math.floor((2 * grossMinor * 10000 + base) / (2 * base));
  return grossMinor - net;
}

/**
 * GET /api/user/tax: the VAT the signed-in buyer's next purchase would carry, for the buy dialog and the
 * checkout. `rate` in percent; under reverse charge the price is reduced by `list_rate`'s VAT part.
 * `choices` is set when the evidence disagrees and the buyer must state a country first.
 */
export const buyerTax = z.object({
  country: z.string().nullable(),
  rate: z.number(),
  list_rate: z.number(),
  reverse_charge: z.boolean(),
  choices: z.array(z.string()).nullable(),
});
export type BuyerTax = z.infer<typeof buyerTax>;

const countryField = text('country', { error: 'Please choose your country.' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine(isCountryCode, 'Please give the country as its two-letter code, such as PT or DE.');

/**
 * PUT /api/user/tax-country: the country the buyer states for VAT (one piece of evidence, and their
 * choice when the others disagree) and, for a business, its VAT number (checked offline by the server;
 * empty or null removes it).
 */
export const taxCountryInput = z.object({
  country: countryField,
  vat_number: text('VAT number').trim().max(20, 'A VAT number has at most 20 characters.').nullable().optional(),
});
export type TaxCountryInput = z.infer<typeof taxCountryInput>;
export const taxCountryAnswer = z.object({ tax_country: z.string(), vat_number: z.string().nullable() });
export type TaxCountryAnswer = z.infer<typeof taxCountryAnswer>;

/** One row of the VAT rates table: the country's standard rate (percent) from `valid_from` on. */
export const vatRate = z.object({ id: z.number().int(), country: z.string(), rate: z.number(), valid_from: z.string() });
export type VatRate = z.infer<typeof vatRate>;

/** POST /api/admin/tax/rates (a new rate from a day on) and PUT /api/admin/tax/rates/{id} (a correction). */
export const vatRateInput = z.object({
  country: countryField,
  rate: z.coerce
    .number({ error: 'Please give the rate in percent, such as 19 or 25.5.' })
    .min(0, 'A rate is between 0 and 50 %.')
    .max(50, 'A rate is between 0 and 50 %.')
    .refine((r) => Number.isInteger(Math.round(r * 100)) && Math.abs(r * 100 - Math.round(r * 100)) < 1e-9, 'A rate has at most two decimals.'),
  valid_from: text('valid from', { error: 'Please give the first day, as YYYY-MM-DD.' }).regex(
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
    'Please give the first day, as YYYY-MM-DD.',
  ),
});
export type VatRateInput = z.infer<typeof vatRateInput>;
export const vatRateParams = z.object({
  id: z.coerce.number({ error: 'Unknown rate.' }).int('Unknown rate.').positive('Unknown rate.').max(9e15, 'Unknown rate.'),
});

/** GET /api/admin/tax/oss?quarter=2026-Q4 (and oss.csv). */
export const ossQuery = z.object({
  quarter: text('quarter', { error: 'Please choose a quarter, such as 2026-Q4.' }).regex(/^20\d\d-Q[1-4]$/, 'Please choose a quarter, such as 2026-Q4.'),
});
export type OssQuery = z.infer<typeof ossQuery>;

/** One country and rate of the One-Stop Shop return: sales less refunds in the quarter, EUR cents. */
export const ossRow = z.object({
  country: z.string(),
  rate: z.number(),
  net_minor: z.number().int(),
  vat_minor: z.number().int(),
  sales: z.number().int(),
  refunds: z.number().int(),
});
export type OssRow = z.infer<typeof ossRow>;
export const ossReport = z.object({
  quarter: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z.array(ossRow),
  total_vat_minor: z.number().int(),
  /** What the ledger's `vat:payable:<country>` accounts moved in the quarter (sales less refunds): it must equal the rows' VAT. */
  ledger_vat_minor: z.number().int(),
});
export type OssReport = z.infer<typeof ossReport>;

/** GET/PUT /api/admin/tax/seller: the platform as the seller on its invoices (legal name, address, VAT number). */
export const platformSeller = z.object({
  legal_name: text('legal name').trim().min(1, 'The legal name field is required.').max(200, 'The legal name may have at most 200 characters.'),
  address: text('address').trim().min(1, 'The address field is required.').max(300, 'The address may have at most 300 characters.'),
  vat_number: text('VAT number').trim().min(1, 'The VAT number field is required.').max(20, 'A VAT number has at most 20 characters.'),
});
export type PlatformSeller = z.infer<typeof platformSeller>;

/** GET /api/orders/{id}/invoice.pdf and credit-note.pdf. */
export const orderDocumentParams = z.object({
  id: z.coerce.number({ error: 'Unknown order.' }).int('Unknown order.').positive('Unknown order.').max(9e15, 'Unknown order.'),
});
