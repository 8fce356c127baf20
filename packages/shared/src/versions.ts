import { z } from 'zod';
import { idParam, text } from './fields';

/**
 * Product updates (issue 34): a creator ships a new version of their own listed work. Version 1 is the
 * work as first published; each later one carries the creator's notes. A version whose file is of
 * another type than the work's current file waits for staff review; any other is published at once.
 */
export const PRODUCT_VERSION_STATUSES = ['published', 'pending_review', 'rejected'] as const;
export const productVersionStatus = z.enum(PRODUCT_VERSION_STATUSES);
export type ProductVersionStatus = z.infer<typeof productVersionStatus>;

export const VERSION_NOTES_MAX = 2000;

/** The text fields of POST /api/seller/products/{id}/versions (multipart, beside the `file`). */
export const productVersionFields = z.object({
  notes: text('notes', { error: 'Please say what changed in this version.' })
    .trim()
    .min(1, 'Please say what changed in this version.')
    .max(VERSION_NOTES_MAX, `The notes may be at most ${VERSION_NOTES_MAX} characters.`),
});
export type ProductVersionFields = z.infer<typeof productVersionFields>;

export const productVersionParams = z.object({ id: idParam('product id') });
export const versionIdParams = z.object({ id: idParam('version id') });

/** One version as its creator, its buyers and the product page see it (published ones only, for anyone but the creator). */
export const productVersion = z.object({
  id: z.number().int(),
  number: z.number().int(),
  status: productVersionStatus,
  notes: z.string(),
  /** The file's format (PNG, PDF…), as the download names it. */
  format: z.string().nullable(),
  created_at: z.string(),
  published_at: z.string().nullable(),
  /** Why staff rejected it (the creator's view only). */
  review_note: z.string().nullable(),
});
export type ProductVersion = z.infer<typeof productVersion>;

/** GET /api/products/{id}/versions: newest first; `updated_at` is when the latest update was published (null: never updated). */
export const productVersions = z.object({
  product_id: z.number().int(),
  updated_at: z.string().nullable(),
  versions: z.array(productVersion),
});
export type ProductVersions = z.infer<typeof productVersions>;

/** Back office: a version waiting for review, with the work it updates and its creator. */
export const adminProductVersion = productVersion.extend({
  product: z.object({ id: z.number().int(), title: z.string(), slug: z.string() }),
  creator: z.object({ id: z.number().int(), nickname: z.string() }),
  /** The file type the work has now, and the new one's. */
  current_type: z.string().nullable(),
  new_type: z.string(),
  /** The new file as a short-lived signed link (staff only). */
  file_url: z.string(),
});
export type AdminProductVersion = z.infer<typeof adminProductVersion>;

export const adminVersionsQuery = z.object({ status: productVersionStatus.optional() });

/** Back office: POST /api/admin/versions/{id}/reject. */
export const rejectVersionInput = z.object({
  reason: text('reason', { error: 'Please give a reason.' }).trim().min(1, 'Please give a reason.').max(2000, 'The reason may be at most 2000 characters.'),
});
