import { z } from 'zod';
import { slugOrIdParam, text } from './fields';
import { msg } from './messages';

/** SPEC §3 site settings: the payload of GET /api/settings. */
export const listItem = z.object({ id: z.number().int(), title: z.string() });
export type ListItem = z.infer<typeof listItem>;

export const siteSettings = z.object({
  is_reg_enabled: z.boolean(),
  is_email_verification_enabled: z.boolean(),
  internal_currency_name: z.string(),
  formats: z.array(listItem),
  sizes: z.array(listItem),
  google_tag: z.string(),
  requisites: z.string(),
  support_email: z.string(),
  copyright: z.string(),
});
export type SiteSettings = z.infer<typeof siteSettings>;

export const imageGeneration = z.enum(['model', 'illustration', 'off']);
export type ImageGeneration = z.infer<typeof imageGeneration>;

/** GET /api/settings: the stored settings, plus what this start's configuration says about money (issue 17). */
export const publicSiteSettings = siteSettings.extend({
  /** A sandbox stands in for real money (PAYMENT_PROVIDER or PAYOUT_PROVIDER): every page shows 'Test mode: no real money'. */
  test_mode: z.boolean(),
  /** How creators may be paid out under the configured PAYOUT_PROVIDER (the manual provider takes no card). */
  payout_methods: z.array(z.enum(['card', 'sepa'])),
  /**
   * How 'Generate an image' makes images (issue 18 bug 4): `model` with an image model (IMAGE_API_URL),
   * `illustration` with the built-in renderer, only where demo data is on, `off` otherwise.
   */
  image_generation: imageGeneration,
  /** What one generated image costs, in EUR (setting generation_price). */
  generation_price: z.number(),
  /** The percent of each sale of a creator's work that Atelier keeps (a commerce setting), told on the home page. */
  commission_percent: z.number().min(0).max(100),
  /** Issue 31: the smallest withdrawal of earnings, in EUR (a commerce setting), told before the form. */
  withdrawal_min: z.number(),
});
export type PublicSiteSettings = z.infer<typeof publicSiteSettings>;

export const currency = z.object({
  code: z.string(),
  symbol: z.string(),
  value: z.number(),
  default: z.boolean(),
  name: z.string(),
  /** Digits after the decimal point (JPY 0): amounts in this currency are shown and accepted with this many. */
  decimals: z.number().int().min(0).max(4),
});
export type Currency = z.infer<typeof currency>;

export const staticPageSummary = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  is_terms: z.number().int(),
  is_privacy: z.number().int(),
  is_cookie: z.number().int(),
});
export type StaticPageSummary = z.infer<typeof staticPageSummary>;

export const staticPage = staticPageSummary.extend({ content: z.string(), updated_at: z.number().int() });
export type StaticPage = z.infer<typeof staticPage>;

export const socialLink = z.object({ id: z.number().int(), url: z.string(), image: z.string() });
export type SocialLink = z.infer<typeof socialLink>;

export const language = z.object({ id: z.number().int(), code: z.string(), name: z.string(), default: z.boolean() });
export type Language = z.infer<typeof language>;

export const dictionary = z.record(z.string(), z.string());
export type Dictionary = z.infer<typeof dictionary>;

export const localeParams = z.object({ locale: text('locale').regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Unknown locale.') });

/** POST /api/contact: the contact page's form. */
export const contactInput = z.object({
  name: text('name', { error: msg('contact.name_required') })
    .trim()
    .min(1, msg('contact.name_required'))
    .max(100, msg('field.too_long', { field: 'name', max: 100 })),
  email: text('email', { error: msg('validation.email') })
    .trim()
    .max(254, msg('field.too_long', { field: 'email', max: 254 }))
    .pipe(z.email({ error: msg('validation.email') })),
  message: text('message', { error: msg('contact.message_required') })
    .trim()
    .min(10, msg('contact.message_short'))
    .max(5000, msg('field.too_long', { field: 'message', max: 5000 })),
});
export type ContactInput = z.infer<typeof contactInput>;

/** GET /api/static-pages/{id}: a page by its slug or id. */
export const staticPageParams = z.object({ id: slugOrIdParam('page', 100) });
