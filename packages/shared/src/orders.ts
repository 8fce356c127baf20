import { z } from 'zod';
import { discountCodeInput } from './discounts';
import { licenceTier } from './licences';

/** Refunded: every item of the order was refunded (issue 19). */
export const orderStatus = z.enum(['Success', 'Pending', 'Failed', 'Refunded']);
export type OrderStatus = z.infer<typeof orderStatus>;

/** SPEC §3 order item. `doc_url_orig` is the download call, never a public path to the original. */
export const orderItem = z.object({
  price: z.number(),
  product_type: z.string(),
  info: z.object({
    id: z.number().int(),
    title: z.string(),
    doc_url: z.string().nullable(),
    doc_url_orig: z.string(),
    tags: z.array(z.object({ name: z.string() })),
    authorNickname: z.string(),
    /** A prompt for an image model (isImagePromptCategory): only these can generate images (issue 18 bug 4). */
    image_prompt: z.boolean(),
  }),
  seller: z.object({ nickname: z.string() }),
  /** 'Refunded' once the item was refunded (its download then answers 410), else null. */
  refund_status: z.literal('Refunded').nullable().optional(),
  /** Issue 34: the licence this line sold (absent in answers stored before tiers: commercial). */
  licence_tier: licenceTier.optional(),
  /** An upgrade line: the licence it replaced; its price is the difference. */
  upgraded_from: licenceTier.nullable().optional(),
});
export type OrderItem = z.infer<typeof orderItem>;

/**
 * An order's VAT (issue 33), stored when it was sold: the buyer's country (null when unknown), the rate
 * in percent, the net and the VAT in EUR cents, and whether the buyer accounts for the VAT (reverse charge).
 */
export const orderTax = z.object({
  country: z.string().nullable(),
  rate: z.number(),
  net_minor: z.number().int(),
  vat_minor: z.number().int(),
  reverse_charge: z.boolean(),
});
export type OrderTax = z.infer<typeof orderTax>;

/**
 * SPEC §3 order. `amount` and item prices are in the currency the order was paid in (`currencyCode`),
 * at that day's rate: a later rate never reprices a past order (issue 18 bug 7). `today` is the total
 * in the visitor's chosen currency now, only when that is another currency: a hint, not a price.
 */
export const order = z.object({
  id: z.number().int(),
  title: z.string(),
  amount: z.number(),
  currencyCode: z.string(),
  today: z.object({ amount: z.number(), currencyCode: z.string() }).nullable(),
  status: orderStatus,
  /** image | doc | prompt | pack for one product, cart for a checkout of several. */
  product_type: z.string(),
  /** Epoch seconds. */
  created_at: z.number().int(),
  items: z.array(orderItem),
  /** Its VAT (always sent; optional for answers stored before issue 33, such as an Idempotency-Key's). */
  tax: orderTax.optional(),
  /** The invoice's number (`2026-000123`) and its PDF; the credit note's PDF once an item was refunded. */
  invoice_number: z.string().nullable().optional(),
  invoice_url: z.string().nullable().optional(),
  credit_note_url: z.string().nullable().optional(),
  /**
   * Issue 34: what a code or a sale took off a bought line (an item, a prompt, a pack), in the
   * order's currency; the item prices above are what was paid. Absent: no discount.
   */
  discounts: z
    .array(z.object({ product_id: z.number().int(), code: z.string(), automatic: z.boolean(), list_price: z.number(), discount: z.number() }))
    .optional(),
});
export type Order = z.infer<typeof order>;

const positiveId = (what: string) =>
  z.coerce
    .number({ error: `Please choose ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}.` })
    .int()
    .positive(`Please choose ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}.`);

/** A discount code (issue 34): optional on every purchase; an automatic sale needs none. */
const discountCode = { discount_code: discountCodeInput.optional() };
/** The licence bought (issue 34): commercial when absent; a tier the work is not offered with is a 422. */
const licence = { licence_tier: licenceTier.optional() };
export const buyItemInput = z.object({ item_id: positiveId('product'), ...discountCode, ...licence });
export const buyPromptInput = z.object({ prompt_id: positiveId('prompt'), ...discountCode, ...licence });
export const buyPackInput = z.object({ pack_id: positiveId('pack'), ...discountCode });
/** The cart's purchase: a code applies to each line it covers; each line's licence is the one it was added with. */
export const cartPurchaseInput = z.object({ ...discountCode }).nullish();
export type CartPurchaseInput = z.infer<typeof cartPurchaseInput>;
export type BuyItemInput = z.infer<typeof buyItemInput>;
export type BuyPromptInput = z.infer<typeof buyPromptInput>;
export type BuyPackInput = z.infer<typeof buyPackInput>;

/** The answer of every purchase call. */
export const purchaseResult = z.object({ status: z.literal('Success'), order });
export type PurchaseResult = z.infer<typeof purchaseResult>;

/**
 * POST /api/purchase/lookup (issue 31): after a purchase lost its connection, the buyer's app asks what
 * became of it by the Idempotency-Key it sent. In the body, so the key never sits in a logged URL.
 */
export const purchaseLookupInput = z.object({
  idempotency_key: z
    .string({ error: 'Please send the Idempotency-Key of the purchase.' })
    .regex(/^[\x21-\x7e]{1,200}$/, 'The Idempotency-Key must be 1 to 200 visible ASCII characters.'),
});
export type PurchaseLookupInput = z.infer<typeof purchaseLookupInput>;
/** `bought`: the purchase went through, here is its order. `not_charged`: it did not, and now never will. */
export const purchaseLookup = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('bought'), order }),
  z.object({ outcome: z.literal('not_charged') }),
]);
export type PurchaseLookup = z.infer<typeof purchaseLookup>;

/** GET /api/user/media/download query. */
export const downloadQuery = z.object({
  id: positiveId('order'),
  product_id: positiveId('product'),
  /** `zip` (issue 34): the file and its LICENCE.txt (buyer, work, licence, order) as one ZIP; `file` (the default): the file alone, resumable. */
  format: z.enum(['file', 'zip'], { error: 'The format must be file or zip.' }).default('file'),
});
export type DownloadQuery = z.infer<typeof downloadQuery>;

/** GET /api/user/media/download-pack?pack_id=: an owned pack's files as one ZIP (issue 31 item 7). */
export const downloadPackQuery = z.object({ pack_id: positiveId('pack') });

/** GET /api/purchase/owned?product_id=: does the signed-in user own this product (or pack), and its downloads. */
export const ownedQuery = z.object({ product_id: positiveId('product') });
export const ownership = z.object({
  owned: z.boolean(),
  /** The order that bought it; null when not owned. */
  order_id: z.number().int().nullable(),
  /** One download per file: the product itself, or each item of a pack. */
  downloads: z.array(z.object({ product_id: z.number().int(), title: z.string(), url: z.string() })),
  /** Issue 34: the licence owned (absent when not owned or for a pack: commercial). */
  licence_tier: licenceTier.optional(),
  /** An owned pack (issue 31 item 7): every file the buyer still has from it, as one ZIP. */
  download_all_url: z.string().optional(),
});
export type Ownership = z.infer<typeof ownership>;

/**
 * The categories whose prompts are written for an image model, with everything below them. Only
 * these prompts can generate an image (issue 18 bug 4): a prompt under any other category, such as
 * 'prompts/chatgpt', is a text prompt, and so is a prompt without a category. An allow-list, so a
 * category staff add later never charges for an image by accident; add its url here to allow it.
 */
export const IMAGE_PROMPT_CATEGORIES = [
  'prompts/midjourney',
  'prompts/stable-diffusion',
  'prompts/dall-e',
  'prompts/flux',
  'prompts/leonardo',
  'prompts/ideogram',
  'prompts/firefly',
] as const;

/** Whether a prompt in the category with this url is an image prompt (see IMAGE_PROMPT_CATEGORIES). */
export function isImagePromptCategory(url: string | null | undefined): boolean {
  if (!url) return false;
  const u = url.toLowerCase().replace(/^\/+|\/+$/g, '');
  return IMAGE_PROMPT_CATEGORIES.some((c) => u === c || u.startsWith(`${c}/`));
}

/** POST /api/purchase/generate-image: format and size are an id or a title from the settings lists. */
export const generateImageInput = z.object({
  prompt_id: positiveId('prompt'),
  format: z.union([z.number().int(), z.string().trim().min(1).max(40)], { error: 'Please choose a format.' }),
  size: z.union([z.number().int(), z.string().trim().min(1).max(40)], { error: 'Please choose a size.' }),
});
export type GenerateImageInput = z.infer<typeof generateImageInput>;
