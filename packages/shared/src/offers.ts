import { z } from 'zod';
import { plainNumber } from './fields';
import { listingTierPrices } from './licences';

/**
 * SPEC §3 offer statuses, plus `paid` (our addition: the payout completed). The transition table
 * that moves between them lives on the server (features/offers/offer-states.ts).
 */
/** `unlisted`: an approved listing the creator took out of the shop (issue 19); relisting makes it `approved` again. */
export const OFFER_STATUSES = [
  'pending',
  'offer',
  'approved',
  'declined',
  'declined_by_service',
  'declined_by_user',
  'payout_processing',
  'paid',
  'unlisted',
] as const;
export const offerStatus = z.enum(OFFER_STATUSES, { error: `The status must be one of: ${OFFER_STATUSES.join(', ')}.` });
export type OfferStatus = z.infer<typeof offerStatus>;

/** SPEC §2: the fixed list of nine styles. */
export const OFFER_STYLES = [
  { id: 1, title: 'Photo-realism' },
  { id: 2, title: 'Impressionism' },
  { id: 3, title: 'Surrealism' },
  { id: 4, title: 'Minimalism' },
  { id: 5, title: 'Abstract' },
  { id: 6, title: 'Comics' },
  { id: 7, title: 'Pop-art' },
  { id: 8, title: 'Vintage/Retro' },
  { id: 9, title: '3D Rendering' },
] as const;
export const offerStyle = z.object({ id: z.number().int(), title: z.string() });
export type OfferStyle = z.infer<typeof offerStyle>;

/** Style titles found in the space-joined `keywords` field (titles may hold spaces: "3D Rendering"). */
export function stylesInKeywords(keywords: string): string[] {
  const text = ` ${keywords.replace(/\s+/g, ' ').trim().toLowerCase()} `;
  return OFFER_STYLES.filter((s) => text.includes(` ${s.title.toLowerCase()} `)).map((s) => s.title);
}

/** File extensions an offer may carry (SPEC §5); the server checks the bytes, not the name. */
export const OFFER_FILE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'svg', 'pdf', 'doc', 'docx', 'txt'] as const;

/** PostgreSQL cannot store a NUL character in text, and no person types one. */
const noNul = (label: string) => ({ message: `The ${label} may not contain a NUL character.` });
const nulFree = (value: string) => !value.includes('\u0000');

const price = (what: string) =>
  plainNumber(z.number({ error: `Please enter a valid ${what}.` }))
    .refine(Number.isFinite, `Please enter a valid ${what}.`)
    .refine((v) => v > 0, `The ${what} must be above zero.`)
    .refine((v) => v <= 1_000_000, `The ${what} may be at most 1000000.`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `The ${what} may have at most 2 decimals.`);

const formBoolean = z.union([z.boolean(), z.string().max(10)]).transform((v) => v === true || ['1', 'true', 'on', 'yes'].includes(String(v).toLowerCase()));

/** The text fields of POST /api/offer/create (multipart; `media` is the file). Messages as SPEC §5. */
/** How a creator sells a work: listed under their name (they earn per sale), or bought out by the platform. */
export const DEAL_TYPES = ['listing', 'buyout'] as const;
export type DealType = (typeof DEAL_TYPES)[number];

export const createOfferFields = z.object({
  title: z
    .string({ error: 'Please enter a title.' })
    .trim()
    .min(1, 'Please enter a title.')
    .max(200, 'The title may be at most 200 characters.')
    .refine(nulFree, noNul('title')),
  description: z.string().trim().max(5000, 'The description may be at most 5000 characters.').refine(nulFree, noNul('description')).default(''),
  category_id: z.coerce
    .number({ error: 'Please select a category.' })
    .int('Please select a category.')
    .positive('Please select a category.')
    .max(Number.MAX_SAFE_INTEGER, 'Please select a category.'),
  price: price('price'),
  /** 'listing': sold in the shop under the creator's name, who earns their share of each sale; 'buyout' (the default): sold to Atelier. */
  deal_type: z.enum(DEAL_TYPES, { error: 'The deal type must be listing or buyout.' }).default('buyout'),
  confirm: formBoolean.default(true),
  keywords: z
    .string({ error: 'Please select at least one style.' })
    .max(500, 'The styles may be at most 500 characters.')
    .refine(nulFree, noNul('styles'))
    .refine((v) => stylesInKeywords(v).length > 0, 'Please select at least one style.'),
});
export type CreateOfferFields = z.infer<typeof createOfferFields>;

/** SPEC §3 Offer, as GET /api/offer/history lists it. Prices in the base currency (EUR). */
export const offer = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  doc_type: z.enum(['image', 'prompt', 'other']),
  doc_url: z.string().nullable(),
  imageUrl: z.string().nullable(),
  user_price: z.number(),
  service_price: z.number().nullable(),
  currency: z.string(),
  status: offerStatus,
  deal_type: z.enum(DEAL_TYPES),
  /** Staff's note with their offer, why it was declined, or why the last payout failed. */
  status_note: z.string().nullable(),
  created_at: z.number().int(),
  tags: z.array(z.object({ name: z.string() })),
  /** Issue 34: a listing's other licences in EUR (`user_price` is the commercial one); null: not offered. */
  personal_price: z.number().nullable().optional(),
  extended_price: z.number().nullable().optional(),
  /** The product an accepted offer became (a listing's own work): where a new version is posted (issue 34). */
  product_id: z.number().int().nullable().optional(),
});
export type Offer = z.infer<typeof offer>;

const offerId = z.coerce
  .number({ error: 'The offer id must be a number.' })
  .int('The offer id must be a number.')
  .positive('The offer id must be a number.')
  .max(Number.MAX_SAFE_INTEGER, 'This offer id is out of range.');

/** POST /api/offer/approve and /api/offer/decline. */
export const offerIdInput = z.object({ id: offerId });
export type OfferIdInput = z.infer<typeof offerIdInput>;
export const offerIdParams = z.object({ id: offerId });

/**
 * PATCH /api/offer/{id}/listing: the creator's new price for their approved (or unlisted) listing, in EUR.
 * Above 50% away from the approved price (up or down), the listing goes back to review. `price` is the
 * commercial licence's (issue 34); `personal_price` below it and `extended_price` above it, or null.
 */
export const listingPriceInput = z.object({ price: price('price'), ...listingTierPrices });
export type ListingPriceInput = z.infer<typeof listingPriceInput>;

/** Back office: GET /api/admin/offers?status= */
export const adminOffersQuery = z.object({ status: offerStatus.optional() });
/** Back office: POST /api/admin/offers/{id}/counter (the creator's own price is a counter at user_price). */
export const adminCounterInput = z.object({
  service_price: price('service price'),
  note: z.string().trim().max(2000, 'The note may be at most 2000 characters.').refine(nulFree, noNul('note')).default(''),
});
/** Back office: POST /api/admin/offers/{id}/decline; `declined` is for spam or policy violations. */
export const adminDeclineInput = z.object({
  reason: z
    .string({ error: 'Please give a reason.' })
    .trim()
    .min(1, 'Please give a reason.')
    .max(2000, 'The reason may be at most 2000 characters.')
    .refine(nulFree, noNul('reason')),
  status: z.enum(['declined_by_service', 'declined'], { error: 'The status must be declined_by_service or declined.' }).default('declined_by_service'),
});

export const adminOffer = offer.extend({
  user: z.object({ id: z.number().int(), nickname: z.string(), email: z.string() }),
  category_id: z.number().int().nullable(),
  file_name: z.string(),
  file_type: z.string(),
  product_id: z.number().int().nullable(),
  /** The original file as a signed link valid for 15 minutes (staff only). */
  file_url: z.string(),
  events: z.array(z.object({ from: z.string().nullable(), to: z.string(), by: z.string(), note: z.string(), at: z.number().int() })),
});
export type AdminOffer = z.infer<typeof adminOffer>;
