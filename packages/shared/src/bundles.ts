import { z } from 'zod';
import { idParam, MAX_ID, requiredText, text } from './fields';

/**
 * Creator bundles (issue 34). A creator proposes a bundle of their own listed works; staff approve it
 * (it is published as a pack whose seller is the creator) or reject it with a reason; the creator may
 * withdraw it while it waits.
 */

export const BUNDLE_MIN_ITEMS = 2;
export const BUNDLE_MAX_ITEMS = 20;
/** A bundle costs at least this many percent less than its works bought one by one. */
export const BUNDLE_MIN_SAVING_PERCENT = 10;

/** The highest price (EUR cents) a bundle of works summing to `sumMinor` may have: 10 % below, rounded down to the cent. */
export function bundleMaxPriceMinor(sumMinor: number): number {
  return Math.floor((sumMinor * (100 - BUNDLE_MIN_SAVING_PERCENT)) / 100);
}

export const BUNDLE_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export const bundleStatus = z.enum(BUNDLE_STATUSES);
export type BundleStatus = z.infer<typeof bundleStatus>;

const workId = z.number({ error: 'Each work is named by its id.' }).int('Each work is named by its id.').min(1, 'Each work is named by its id.').max(MAX_ID);

/** POST /api/seller/bundles. `price` in EUR, at most 2 decimals. */
export const createBundleInput = z.object({
  title: requiredText('title', 200),
  description: text('description').trim().max(5000, 'The description may have at most 5000 characters.').default(''),
  product_ids: z
    .array(workId, { error: 'Please pick the works of the bundle.' })
    .min(BUNDLE_MIN_ITEMS, `A bundle holds at least ${BUNDLE_MIN_ITEMS} works: pick one more.`)
    .max(BUNDLE_MAX_ITEMS, `A bundle holds at most ${BUNDLE_MAX_ITEMS} works: leave some out.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each work may be in the bundle once: remove the repeated one.'),
  price: z
    .number({ error: 'The price must be a number.' })
    .positive('The price must be above zero.')
    .max(1_000_000, 'The price may be at most 1000000.')
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'The price may have at most 2 decimals.'),
});
export type CreateBundleInput = z.infer<typeof createBundleInput>;

export const bundleParams = z.object({ id: idParam('bundle id') });

export const bundleItem = z.object({ id: z.number().int(), title: z.string(), price_minor: z.number().int() });

/** A bundle proposal as its creator and staff see it. Money in EUR cents. */
export const bundle = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: bundleStatus,
  /** Why staff rejected it (null otherwise). */
  reason: z.string().nullable(),
  price_minor: z.number().int(),
  /** The works' prices added up, as they are now. */
  items_price_minor: z.number().int(),
  items: z.array(bundleItem),
  /** The pack it was published as (approved only). */
  pack_id: z.number().int().nullable(),
  pack_slug: z.string().nullable(),
  creator_nickname: z.string(),
  created_at: z.string(),
});
export type Bundle = z.infer<typeof bundle>;
/** GET /api/seller/bundles/works: the creator's works that may go into a bundle (listed, their own, not packs). */
export const bundleWorks = z.object({ works: z.array(bundleItem) });
export type BundleItem = z.infer<typeof bundleItem>;

export const bundleAnswer = z.object({ bundle });
export const bundleList = z.object({ bundles: z.array(bundle) });

/** GET /api/admin/bundles?status=: the review queue (pending by default). */
export const adminBundlesQuery = z.object({ status: bundleStatus.default('pending') });
/** POST /api/admin/bundles/{id}/reject. */
export const rejectBundleInput = z.object({ reason: requiredText('reason', 1000) });
export type RejectBundleInput = z.infer<typeof rejectBundleInput>;

/** A pack's saving against buying its works one by one (display currency); null when there is none. */
export const packSaving = z.object({ items_price: z.number(), amount: z.number(), percent: z.number().int() });
export type PackSaving = z.infer<typeof packSaving>;
