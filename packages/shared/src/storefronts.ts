import { z } from 'zod';
import { productBase } from './catalog';
import { MAX_ID, text } from './fields';
import { msg } from './messages';

/**
 * Storefronts (issue 34): a creator arranges their public profile: a banner, a headline, a few links
 * (https only) and up to six of their own listed works in their order, shown with their followers and
 * sales. The owner edits it (`PUT /api/seller/storefront`, the banner apart as a file); anyone reads it
 * (`GET /api/creators/{nickname or id}/storefront`), and the profile page renders it on the server.
 */

export const STOREFRONT_HEADLINE_MAX = 120;
export const STOREFRONT_LINKS_MAX = 5;
export const STOREFRONT_FEATURED_MAX = 6;
export const STOREFRONT_LINK_LABEL_MAX = 40;
export const STOREFRONT_LINK_URL_MAX = 500;
/** A banner is checked like an avatar (an image judged by its bytes), up to 5 MB. */
export const BANNER_MAX_BYTES = 5 * 1024 * 1024;

/** An https address with a host; anything else (http, javascript:, mailto:) is refused with one sentence. */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const storefrontLink = z.object({
  label: text('link label').trim().max(STOREFRONT_LINK_LABEL_MAX, `A link label may have at most ${STOREFRONT_LINK_LABEL_MAX} characters.`).default(''),
  url: text('link address', { error: msg('storefront.link_required') })
    .trim()
    .min(1, msg('storefront.link_required'))
    .max(STOREFRONT_LINK_URL_MAX, `A link address may have at most ${STOREFRONT_LINK_URL_MAX} characters.`)
    .refine(isHttpsUrl, msg('storefront.link_https')),
});
export type StorefrontLink = z.infer<typeof storefrontLink>;

const workId = z
  .number({ error: 'Each featured work is named by its id.' })
  .int('Each featured work is named by its id.')
  .min(1, 'Each featured work is named by its id.')
  .max(MAX_ID, 'Each featured work is named by its id.');

/** PUT /api/seller/storefront: the whole storefront but the banner; featured works in the creator's order. */
export const updateStorefrontInput = z.object({
  headline: text('headline').trim().max(STOREFRONT_HEADLINE_MAX, `The headline may have at most ${STOREFRONT_HEADLINE_MAX} characters.`).default(''),
  links: z
    .array(storefrontLink, { error: 'Please give the links as a list.' })
    .max(STOREFRONT_LINKS_MAX, msg('storefront.max_links', { max: STOREFRONT_LINKS_MAX }))
    .default([]),
  featured_ids: z
    .array(workId, { error: 'Please give the featured works as a list of ids.' })
    .max(STOREFRONT_FEATURED_MAX, msg('storefront.max_featured', { max: STOREFRONT_FEATURED_MAX }))
    .refine((ids) => new Set(ids).size === ids.length, msg('storefront.featured_once'))
    .default([]),
});
export type UpdateStorefrontInput = z.input<typeof updateStorefrontInput>;

/** The public storefront: what the profile page shows above the creator's works. */
export const storefront = z.object({
  creator_id: z.number().int(),
  nickname: z.string(),
  headline: z.string(),
  banner_url: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  /** Only works still listed, in the creator's order (a work unlisted or hidden since drops out). */
  featured: z.array(productBase),
  followers_count: z.number().int(),
  /** Orders that bought one of the creator's works (alone or in a pack) and still stand, their own left out. */
  sales_count: z.number().int(),
});
export type Storefront = z.infer<typeof storefront>;

/** A work the creator may feature: one of their own listed works. */
export const featurableWork = z.object({
  id: z.number().int(),
  title: z.string(),
  product_type: z.string(),
  image_url: z.string().nullable(),
});
export type FeaturableWork = z.infer<typeof featurableWork>;

/** GET /api/seller/storefront: the owner's storefront as the editor loads it, and the works it may feature. */
export const ownStorefront = z.object({
  headline: z.string(),
  banner_url: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  featured_ids: z.array(z.number().int()),
  works: z.array(featurableWork),
});
export type OwnStorefront = z.infer<typeof ownStorefront>;

/** GET /api/creators/{key}/storefront. */
export const storefrontParams = z.object({
  key: text('creator').trim().min(1, 'The creator is required.').max(60, 'The creator may have at most 60 characters.'),
});
