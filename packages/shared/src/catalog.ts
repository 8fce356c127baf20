import { z } from 'zod';
import { packSaving } from './bundles';
import { CATALOG_PAGE_SIZE, PRODUCT_TYPES, RANDOM_PRODUCTS_DEFAULT } from './constants';
import { idParam, limitParam, pageParam, slugOrIdParam, text } from './fields';
import { productLicence } from './licences';

export const productType = z.enum(PRODUCT_TYPES, { error: `The product type must be one of: ${PRODUCT_TYPES.join(', ')}.` });

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

/**
 * SPEC §3 product, plus price fields computed on the server in the requested currency.
 * doc_url is the preview's path in public storage; imageUrl is the same file as a URL path (/storage/...).
 */
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
  /** The preview in each width it is stored at (an HTML srcset), so a browser downloads the size it shows. */
  imageSrcSet: z.string().nullable(),
  /** The kind of file a buyer gets, from its name (PDF, TXT, PNG); null without a file (prompts, packs). */
  file_type: z.string().nullable(),
  tags: z.array(z.string()),
  /** In the requested currency, rounded once to 2 decimals. */
  price: z.number(),
  /** The code of the currency `price` is in. */
  currency: z.string(),
  currencySymbol: z.string(),
  /** Epoch seconds. */
  created_at: z.number().int(),
  /** The average of its visible reviews, one decimal (0 without reviews). */
  rating_average: z.number(),
  rating_count: z.number().int(),
  /** Issue 34: a running sale: the price after it (display currency) and when it ends; `price` stays the list price. */
  sale: z.object({ price: z.number(), ends_at: z.string().nullable() }).nullable().optional(),
});
export type ProductBase = z.infer<typeof productBase>;

/**
 * What a buyer gets (issue 31 item 7): the format (PNG, PDF, TXT), its size in bytes, the pixel size
 * of an image, the pages of a PDF or DOCX, the words of a text or prompt, and the model a prompt is
 * written for (its category under Prompts: Midjourney, ChatGPT). What is not known is left out.
 */
export const fileInfo = z.object({
  format: z.string(),
  bytes: z.number().int(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  words: z.number().int().optional(),
  pages: z.number().int().optional(),
  model: z.string().optional(),
});
export type FileInfo = z.infer<typeof fileInfo>;

/** A product in a list; a pack carries its items. */
export const product = productBase.extend({
  items: z.array(productBase).optional(),
  /** A pack only (issue 34): what it saves against buying its works still for sale one by one; null when nothing. */
  saving: packSaving.nullable().optional(),
});
export type Product = z.infer<typeof product>;

/**
 * GET /products/{slug}/info and /packs/{slug}/info (issue 31 item 7): a product with its trust signals.
 * `sales_count`: the orders that bought it (alone or inside a pack; a pack: the orders that bought
 * the pack) and were not refunded, the author's own purchases left out. `file`: null for a pack (its
 * items have theirs) and while an uploaded file is not measured yet.
 */
export const productDetails = product.extend({
  sales_count: z.number().int(),
  file: fileInfo.nullable(),
  /** Issue 34: the licences offered, narrowest first, each at its list price (commercial's is `price`). */
  licences: z.array(productLicence).optional(),
});
export type ProductDetails = z.infer<typeof productDetails>;

/** Works shown below the buy box (issue 20): up to this many in each row. */
export const RELATED_ROW_SIZE = 8;

/** GET /products/{slug}/related: the creator's other works and similar works (same type; shared tags, then category, then rating). */
export const relatedProducts = z.object({ more_from: z.array(productBase), similar: z.array(productBase) });
export type RelatedProducts = z.infer<typeof relatedProducts>;

/**
 * `total_estimated: true` (absent otherwise): more than a thousand matches, so `total` is the
 * database's estimate, not a count; a search by relevance then pages through its best thousand only.
 */
export const catalogMeta = z.object({
  total: z.number().int(),
  pages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  total_estimated: z.literal(true).optional(),
});
export type CatalogMeta = z.infer<typeof catalogMeta>;

/** GET /products/catalog and GET /packs: `{status, payload, meta}`. */
export const catalogAnswer = z.object({ status: z.literal('OK'), payload: z.array(product), meta: catalogMeta });
export type CatalogAnswer = z.infer<typeof catalogAnswer>;

export const CATALOG_SORTS = ['id~desc', 'id~asc', 'price~asc', 'price~desc', 'created_at~desc', 'popularity~desc', 'rating~desc'] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

const sortParam = z.enum(CATALOG_SORTS, { error: `The sort must be one of: ${CATALOG_SORTS.join(', ')}.` });

const searchParam = text('search').trim().max(200, 'The search may have at most 200 characters.').optional();

/** `?categories_id=3`, `?categories_id=3,4`, `?categories_id=3&categories_id=4` or `categories_id[]=3`. */
const categoryIds = z.preprocess((value) => {
  if (value === undefined || value === '') return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
  return list.map((v) => v.trim()).filter((v) => v !== '');
}, z.array(idParam('category id')).max(50, 'At most 50 categories may be given.').optional());

/** The display currency: an ISO code (the X-Currency header may give it instead). */
export const currencyParam = text('currency').trim().toUpperCase().max(10, 'The currency must be an ISO code such as EUR.').optional();

export const catalogQuery = z.object({
  page: pageParam,
  limit: limitParam(CATALOG_PAGE_SIZE),
  sort: sortParam.optional(),
  product_type: productType.optional(),
  categories_id: categoryIds,
  'categories_id[]': categoryIds,
  search: searchParam,
  /** Only this creator's works: a nickname (case-insensitive) or a user id, as in /profile/{nickname}. */
  author: slugOrIdParam('author', 60).optional(),
  currency: currencyParam,
});
export type CatalogQuery = z.infer<typeof catalogQuery>;

export const packsQuery = z.object({
  page: pageParam,
  limit: limitParam(CATALOG_PAGE_SIZE),
  sort: sortParam.optional(),
  /** Packs holding works of this type (`pack`: every pack). */
  product_type: productType.optional(),
  search: searchParam,
  currency: currencyParam,
});
export type PacksQuery = z.infer<typeof packsQuery>;

export const randomQuery = z.object({ limit: limitParam(RANDOM_PRODUCTS_DEFAULT), product_type: productType.optional(), currency: currencyParam });
export type RandomQuery = z.infer<typeof randomQuery>;

/** favorites and new-items: a short list. */
export const shortListQuery = z.object({ limit: limitParam(RANDOM_PRODUCTS_DEFAULT), product_type: productType.optional(), currency: currencyParam });
export type ShortListQuery = z.infer<typeof shortListQuery>;

export const productInfoParams = z.object({ slug: slugOrIdParam('product') });
export const currencyOnlyQuery = z.object({ currency: currencyParam });

/** SPEC §3 country: id is the ISO 3166-1 numeric code, code the alpha-2 code. */
export const country = z.object({ id: z.number().int(), code: z.string(), title: z.string() });
export type Country = z.infer<typeof country>;

/** Back office: what staff may change on a product (visibility, list price in EUR, category and tags). */
export const PRODUCT_STATUSES = ['draft', 'published', 'hidden'] as const;
export const adminProductUpdate = z
  .object({
    status: z.enum(PRODUCT_STATUSES, { error: `The status must be one of: ${PRODUCT_STATUSES.join(', ')}.` }).optional(),
    price: z
      .number({ error: 'The price must be a number.' })
      .positive('The price must be above zero.')
      .max(1_000_000, 'The price may be at most 1000000.')
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'The price may have at most 2 decimals.')
      .optional(),
    category_id: idParam('category id').optional(),
    title: text('title').trim().min(1, 'Please enter a title.').max(200, 'The title may be at most 200 characters.').optional(),
    description: text('description').trim().max(5000, 'The description may be at most 5000 characters.').optional(),
    /** The product's whole tag list (replaces the old one); each tag 1 to 50 characters. */
    tags: z
      .array(text('tag').trim().min(1, 'A tag may not be empty.').max(50, 'A tag may have at most 50 characters.'), { error: 'The tags must be a list.' })
      .max(20, 'A product may have at most 20 tags.')
      .optional(),
  })
  .refine((v) => Object.values(v).some((field) => field !== undefined), {
    message: 'Send a status, price, category, tags, title or description to change.',
    path: ['status'],
  });
export type AdminProductUpdate = z.infer<typeof adminProductUpdate>;
export const adminProduct = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  product_type: productType,
  status: z.enum(PRODUCT_STATUSES),
  price_minor: z.number().int(),
  category_id: z.number().int().nullable(),
  tags: z.array(z.string()),
  description: z.string(),
  author: z.object({ id: z.number().int(), nickname: z.string() }),
  platform_owned: z.boolean(),
  /**
   * A pack only: its works no longer for sale (unlisted, hidden, author deleted), which it no longer
   * sells; below 2 works still for sale the pack stops selling (issue 30). Staff see it flagged.
   */
  pack_items_not_for_sale: z.array(z.number().int()).optional(),
  /** A pack only: whether it still sells (at least 2 of its works are for sale). */
  pack_sells: z.boolean().optional(),
});
/** Back office: GET /api/admin/products?q=&status=&product_type= (newest first). */
export const adminProductsQuery = z.object({
  q: text('search').trim().max(100, 'The search may have at most 100 characters.').default(''),
  status: z.enum(PRODUCT_STATUSES, { error: `The status must be one of: ${PRODUCT_STATUSES.join(', ')}.` }).optional(),
  product_type: productType.optional(),
  limit: z.coerce.number({ error: 'The limit must be a number.' }).int().min(1).max(200).default(50),
});
export type AdminProduct = z.infer<typeof adminProduct>;

/**
 * GET /api/visitor/country: the visitor's likely country, for defaults such as the phone field's
 * country (issue 18): from the address when GEOIP_DB holds it, else the Accept-Language region.
 */
export const visitorCountry = z.object({
  country: z.string().length(2).nullable(),
  source: z.enum(['address', 'language']).nullable(),
});
export type VisitorCountry = z.infer<typeof visitorCountry>;
