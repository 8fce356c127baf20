import { z } from 'zod';
import { requiredText, text } from './fields';

/**
 * Trader details (issue 33: DSA traceability, DAC7): a creator gives them before their first listing
 * goes live or their first withdrawal. A change after a sale is kept as history for staff.
 */

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** An ISO 3166-1 alpha-2 code the runtime knows a name for ("XX" and "ZZ" are refused). */
export function isCountryCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && value !== 'ZZ' && regions.of(value) !== value;
}

const country = text('country', { error: 'Please choose the country.' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine(isCountryCode, 'Please give the country as its two-letter code, such as PT or DE.');

/** A date of birth: a real calendar date, in the past, of someone at least 18 years old. */
export function dateOfBirthProblem(value: string, today = new Date()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return 'Please give the date of birth as YYYY-MM-DD.';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return 'This date does not exist.';
  if (y < 1900) return 'Please check the year of birth.';
  const adult = new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate()));
  if (date > adult) return 'A seller must be at least 18 years old.';
  return null;
}

export const SELLER_KINDS = ['individual', 'business'] as const;

export const sellerAddress = z.object({
  line1: requiredText('address line 1', 200),
  line2: text('address line 2').trim().max(200, 'The address line 2 may have at most 200 characters.').optional(),
  city: requiredText('city', 100),
  post_code: text('post code', { error: 'The post code field is required.' })
    .trim()
    .min(1, 'The post code field is required.')
    .max(12, 'The post code may have at most 12 characters.')
    .regex(/^([A-Za-z0-9][A-Za-z0-9 -]*)?$/, 'The post code may have letters, digits, spaces and dashes only.'),
  country,
});
export type SellerAddress = z.infer<typeof sellerAddress>;

/** PUT /api/user/seller-details. date_of_birth is for an individual; registration_number for a business. */
export const sellerDetailsInput = z
  .object({
    kind: z.enum(SELLER_KINDS, { error: 'Please say whether you sell as an individual or as a business.' }),
    legal_name: requiredText('legal name', 200),
    date_of_birth: text('date of birth').trim().optional(),
    address: sellerAddress,
    tax_id: text('tax id', { error: 'The tax id field is required.' })
      .trim()
      .min(1, 'The tax id field is required.')
      .max(30, 'The tax id may have at most 30 characters.')
      .regex(/^([A-Za-z0-9][A-Za-z0-9 ./-]*)?$/, 'The tax id may have letters, digits, spaces, dots, dashes and slashes only.'),
    vat_id: text('VAT number')
      .trim()
      .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase())
      .refine((v) => v === '' || /^[A-Z]{2}[A-Z0-9]{2,13}$/.test(v), 'A VAT number starts with its two-letter country prefix, such as PT123456789.')
      .optional(),
    registration_number: text('registration number').trim().max(50, 'The registration number may have at most 50 characters.').optional(),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'individual') {
      const problem = value.date_of_birth ? dateOfBirthProblem(value.date_of_birth) : 'An individual seller must give their date of birth.';
      if (problem) ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: problem });
    }
    if (value.kind === 'business' && !value.registration_number) {
      ctx.addIssue({ code: 'custom', path: ['registration_number'], message: 'A business must give its company registration number.' });
    }
  });
export type SellerDetailsInput = z.infer<typeof sellerDetailsInput>;

export const sellerDetails = z.object({
  kind: z.enum(SELLER_KINDS),
  legal_name: z.string(),
  date_of_birth: z.string().nullable(),
  address: z.object({ line1: z.string(), line2: z.string().nullable(), city: z.string(), post_code: z.string(), country: z.string() }),
  tax_id: z.string(),
  vat_id: z.string().nullable(),
  registration_number: z.string().nullable(),
  updated_at: z.number().int(),
});
export type SellerDetails = z.infer<typeof sellerDetails>;

/** GET /api/user/seller-details: null until given. */
export const sellerDetailsAnswer = z.object({ status: z.literal('OK'), payload: sellerDetails.nullable(), message: z.string().optional() });

/** Where the web sends a creator to give them (the gate's 4xx names it too). */
export const SELLER_DETAILS_PATH = '/dashboard/seller-details';
export const SELLER_DETAILS_REQUIRED =
  'Before your first listing goes live or your first withdrawal, please give your trader details (the law asks marketplaces to know who sells).';

/** Staff: a seller's details now and as they were before each change made after a sale. */
export const adminSellerDetails = z.object({
  user_id: z.number().int(),
  current: sellerDetails.nullable(),
  history: z.array(z.object({ details: sellerDetails, replaced_at: z.number().int() })),
});

/** GET /api/admin/dac7?year=2026 (and /api/admin/dac7.csv). */
export const dac7Query = z.object({
  year: z.coerce
    .number({ error: 'The year must be a number such as 2026.' })
    .int('The year must be a number such as 2026.')
    .min(2023, 'DAC7 reports start with 2023.')
    .max(2100, 'The year must be a number such as 2026.'),
});

export const DAC7_MIN_SALES = 30;
export const DAC7_MIN_CONSIDERATION_MINOR = 200_000;

export const dac7Seller = z.object({
  user_id: z.number().int(),
  nickname: z.string(),
  details: sellerDetails.nullable(),
  /** Consideration paid (less refunds), per quarter Q1..Q4, in EUR minor units. */
  consideration_minor: z.array(z.number().int()).length(4),
  fees_minor: z.array(z.number().int()).length(4),
  sales: z.array(z.number().int()).length(4),
  refunded_sales: z.number().int(),
  total_consideration_minor: z.number().int(),
  total_sales: z.number().int(),
  /** Excluded: fewer than 30 sales and under 2,000 € in the year. */
  excluded: z.boolean(),
});
export type Dac7Seller = z.infer<typeof dac7Seller>;
export const dac7Report = z.object({
  year: z.number().int(),
  threshold: z.object({ min_sales: z.number().int(), min_consideration_minor: z.number().int(), rule: z.string() }),
  fees_source: z.string(),
  sellers: z.array(dac7Seller),
});
export type Dac7Report = z.infer<typeof dac7Report>;
