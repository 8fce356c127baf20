import { z } from 'zod';

/** Luhn check digit rule, which every real card number passes. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616 IBAN check: country, check digits, and mod-97 of the rearranged number equals 1. */
export function isIbanValid(iban: string): boolean {
  const v = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(v)) return false;
  const rearranged = v.slice(4) + v.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of n) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** SPEC §5's 'field name with spaces + is required', written as a sentence ('Post code is required.'). */
const required = (field: string) => {
  const name = field.replace(/_/g, ' ');
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} is required.`;
};
const text = (field: string, max = 200) =>
  z
    .string({ error: required(field) })
    .trim()
    .min(1, required(field))
    .max(max, `${field.replace(/_/g, ' ')} may be at most ${max} characters`);

/** SPEC §3 contact details (the duplicates name, surname, postCode are accepted and ignored). */
export const contactDetails = z.object({
  first_name: text('first_name', 100),
  last_name: text('last_name', 100),
  email: text('email', 254).pipe(z.email('email is not a valid e-mail address')),
  phone: text('phone', 25),
  address: text('address'),
  city: text('city', 100),
  post_code: text('post_code', 20),
  country: z.coerce
    .number({ error: required('country') })
    .int(required('country'))
    .min(1, required('country'))
    .max(999, required('country')),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'currency must be a currency code')
    .default('EUR'),
});
export type ContactDetails = z.infer<typeof contactDetails>;

/** GET /api/offer/contact-details: the last payout's contact details, or the profile's for a first payout. */
export const savedContactDetails = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  post_code: z.string(),
  country: z.number().int().nullable(),
  currency: z.string(),
});
export type SavedContactDetails = z.infer<typeof savedContactDetails>;

const offerId = z.coerce.number({ error: 'The offer id must be a number.' }).int().positive('The offer id must be a number.').max(Number.MAX_SAFE_INTEGER);

/** The card fields of a payout (an offer's or a withdrawal's), checked as SPEC §5 says, plus Luhn. */
export const cardPayoutFields = contactDetails.extend({
  card_number: z
    .string({ error: 'Please enter a valid card number' })
    .max(40, 'Please enter a valid card number')
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{13,19}$/.test(v) && isLuhnValid(v), 'Please enter a valid card number'),
  expire_month: z.coerce
    .number({ error: 'Please enter a valid expiry month (1-12)' })
    .int('Please enter a valid expiry month (1-12)')
    .min(1, 'Please enter a valid expiry month (1-12)')
    .max(12, 'Please enter a valid expiry month (1-12)'),
  expire_year: z.coerce.number({ error: 'Please enter a valid expiry year' }).int('Please enter a valid expiry year'),
  terms: z
    .union([z.boolean(), z.string().max(10)])
    .refine((v) => v === true || v === 'true' || v === '1' || v === 'on', 'Please agree to the terms and conditions.'),
  card_holder_name: text('card_holder_name'),
});

/** A card that has not expired (and expires within 20 years). */
export function checkCardExpiry(v: { expire_month: number; expire_year: number }, ctx: z.RefinementCtx) {
  const now = new Date();
  const year = now.getUTCFullYear();
  if (v.expire_year < year || v.expire_year > year + 20) ctx.addIssue({ code: 'custom', path: ['expire_year'], message: 'Please enter a valid expiry year' });
  else if (v.expire_year === year && v.expire_month < now.getUTCMonth() + 1) {
    ctx.addIssue({ code: 'custom', path: ['expire_month'], message: 'Card has expired. Please use a valid card' });
  }
}

/** SPEC §3 card payout payload. */
export const cardPayoutInput = cardPayoutFields.extend({ id: offerId, paymentType: z.literal('card').default('card') }).superRefine(checkCardExpiry);
export type CardPayoutInput = z.infer<typeof cardPayoutInput>;

/** The bank (SEPA) fields of a payout (an offer's or a withdrawal's): the IBAN passes mod-97. */
export const sepaPayoutFields = contactDetails.extend({
  account_number: z
    .string({ error: 'IBAN is required' })
    .max(50, 'Please enter a valid IBAN')
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => v.length > 0, 'IBAN is required')
    .refine((v) => v.length === 0 || isIbanValid(v), 'Please enter a valid IBAN'),
  recipient_full_name: text('recipient_full_name'),
});

/** SPEC §3 bank (SEPA) payout payload. */
export const sepaPayoutInput = sepaPayoutFields.extend({ id: offerId, paymentType: z.literal('sepa').default('sepa') });
export type SepaPayoutInput = z.infer<typeof sepaPayoutInput>;

/** needs_review: the job gave up and the provider may have paid it; staff wait for the provider's answer (issue 30). */
export const PAYOUT_STATUSES = ['processing', 'needs_review', 'paid', 'failed'] as const;
export const payoutStatus = z.enum(PAYOUT_STATUSES, { error: `The status must be one of: ${PAYOUT_STATUSES.join(', ')}.` });
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A payout as the creator and staff see it: only masked details ever leave the server. */
export const payout = z.object({
  id: z.number().int(),
  /** What it pays for: an accepted offer, or a creator's withdrawal of earnings (offer_id 0). */
  kind: z.enum(['offer', 'withdrawal']),
  offer_id: z.number().int(),
  method: z.enum(['card', 'sepa']),
  amount: z.number(),
  currency: z.string(),
  status: payoutStatus,
  /** "visa •••• 4242" or "DE89 •••• 3000". */
  destination: z.string(),
  failure_reason: z.string().nullable(),
  /** Who sends it: 'sandbox', 'manual' (staff pay it by bank transfer) or 'stripe'. */
  provider: z.string(),
  /** Whether staff end it in the back office (no provider is sending it now). */
  awaits_staff: z.boolean(),
  /** The bank transfer's reference staff gave when marking it paid. */
  transfer_reference: z.string().nullable(),
  /** needs_review only: what the provider said when asked by payout id; unknown until it answers. */
  provider_state: z.enum(['unknown', 'paid', 'not_paid']).nullable(),
  created_at: z.number().int(),
});
export type Payout = z.infer<typeof payout>;

export const adminPayoutsQuery = z.object({ status: payoutStatus.optional() });
/**
 * Back office: a bank transfer marked paid with its reference (the bank's transaction id or end-to-end
 * id), or a processing payout marked failed with a reason.
 */
export const adminPayoutOutcome = z
  .object({
    outcome: z.enum(['paid', 'failed'], { error: 'The outcome must be paid or failed.' }),
    reason: z
      .string()
      .trim()
      .max(2000)
      .refine((v) => !v.includes('\u0000'), 'The reason may not contain a NUL character.')
      .default(''),
    reference: z
      .string()
      .trim()
      .max(140, 'The transfer reference may be at most 140 characters.')
      .refine((v) => !v.includes('\u0000'), 'The transfer reference may not contain a NUL character.')
      .default(''),
  })
  .refine((v) => v.outcome === 'paid' || v.reason.length > 0, { message: 'Please give a reason.', path: ['reason'] })
  .refine((v) => v.outcome === 'failed' || v.reference.length > 0, {
    message: "Please give the transfer's reference from your bank statement.",
    path: ['reference'],
  });
