import { z } from 'zod';
import { PRODUCT_TYPES } from './constants';

export const productType = z.enum(PRODUCT_TYPES);

/** SPEC §3 category: parent_id is null at the top level; the url's first segment gives the type. */
export const category = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  title: z.string(),
  url: z.string(),
});
export type Category = z.infer<typeof category>;

export const tag = z.object({ id: z.number().int(), name: z.string() });
export type Tag = z.infer<typeof tag>;

/** SPEC §3 product, plus price fields computed on the server in the requested currency. */
export const productBase = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  author: z.string(),
  authorNickname: z.string(),
  authorAvatarUrl: z.string().nullable(),
  product_type: productType,
  category_id: z.number().int().nullable(),
  doc_url: z.string().nullable(),
  imageUrl: z.string().nullable(),
  tags: z.array(z.string()),
  price: z.number(),
  currency: z.string(),
  currencySymbol: z.string(),
  created_at: z.number().int(),
});
export type ProductBase = z.infer<typeof productBase>;

export const product = productBase.extend({ items: z.array(productBase).optional() });
export type Product = z.infer<typeof product>;

export const catalogMeta = z.object({ total: z.number().int(), pages: z.number().int(), page: z.number().int(), limit: z.number().int() });
export type CatalogMeta = z.infer<typeof catalogMeta>;
