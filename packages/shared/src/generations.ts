import { z } from 'zod';
import { idParam } from './fields';

/**
 * A generated image as its buyer sees it (issue 29): processing until the job settles it, then ready
 * (with its download), failed (nothing was charged) or refunded (the charge went back to the balance).
 */
export const generationStatus = z.enum(['processing', 'ready', 'failed', 'refunded']);
export type GenerationListStatus = z.infer<typeof generationStatus>;

/** GET /api/user/generations: the signed-in buyer's generated images, newest first. */
export const generation = z.object({
  id: z.number().int(),
  /** The prompt it was generated from (null once that product was deleted). */
  prompt_id: z.number().int().nullable(),
  prompt_title: z.string().nullable(),
  status: generationStatus,
  /** What was charged, in EUR (the site's base currency); 0 for a free generation. */
  price: z.number(),
  /** Epoch seconds. */
  created_at: z.number().int(),
  /** The zip (image, prompt text, licence) while ready; null otherwise. */
  download_url: z.string().nullable(),
});
export type Generation = z.infer<typeof generation>;

/** GET /api/user/generations/{id}/download */
export const generationParams = z.object({ id: idParam('generation') });
