import {
  type CatalogMeta,
  type CatalogSort,
  type Category,
  convertMinor,
  minorToAmount,
  type Product,
  type ProductBase,
  type ProductType,
  type Tag,
} from '@atelier/shared';
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, packItems, products, productTags, tags, users } from '../../db/schema';
import type { DisplayCurrency } from '../../lib/display-currency';

const tagNames = sql<
  string[]
>`coalesce((select array_agg(${tags.name} order by ${tags.name}) from ${productTags} join ${tags} on ${tags.id} = ${productTags.tagId} where ${productTags.productId} = ${products.id}), '{}')`;

const productFields = {
  id: products.id,
  slug: products.slug,
  title: products.title,
  description: products.description,
  productType: products.productType,
  categoryId: products.categoryId,
  priceMinor: products.priceMinor,
  previewPath: products.previewPath,
  createdAt: products.createdAt,
  authorName: users.name,
  authorSurname: users.surname,
  authorNickname: users.nickname,
  authorAvatarPath: users.avatarPath,
  tags: tagNames,
};
type ProductRow = {
  id: number;
  slug: string;
  title: string;
  description: string;
  productType: ProductType;
  categoryId: number | null;
  priceMinor: number;
  previewPath: string | null;
  createdAt: Date;
  authorName: string;
  authorSurname: string;
  authorNickname: string;
  authorAvatarPath: string | null;
  tags: string[];
};

const storageUrl = (key: string | null) => (key ? `/storage/${key}` : null);

/** A row as the wire shows it, priced once in the display currency. */
function toProduct(row: ProductRow, currency: DisplayCurrency): ProductBase {
  return {
    id: Number(row.id),
    slug: row.slug,
    title: row.title,
    description: row.description,
    author: `${row.authorName} ${row.authorSurname}`.trim(),
    authorNickname: row.authorNickname,
    authorAvatarUrl: storageUrl(row.authorAvatarPath),
    product_type: row.productType,
    category_id: row.categoryId === null ? null : Number(row.categoryId),
    doc_url: row.previewPath,
    imageUrl: storageUrl(row.previewPath),
    tags: Array.isArray(row.tags) ? row.tags : [],
    price: minorToAmount(convertMinor(Number(row.priceMinor), currency.rate)),
    currency: currency.code,
    currencySymbol: currency.symbol,
    created_at: Math.floor(new Date(row.createdAt).getTime() / 1000),
  };
}

/** What every public list shows: published products by authors who still have an account. */
const visible = and(eq(products.status, 'published'), isNull(users.deletedAt));

function selectProducts(db: Db) {
  return db.select(productFields).from(products).innerJoin(users, eq(users.id, products.authorId));
}

const sortOrder: Record<CatalogSort, SQL[]> = {
  'id~desc': [desc(products.id)],
  'id~asc': [asc(products.id)],
  'price~asc': [asc(products.priceMinor), desc(products.id)],
  'price~desc': [desc(products.priceMinor), desc(products.id)],
  'created_at~desc': [desc(products.createdAt), desc(products.id)],
  'popularity~desc': [desc(products.popularity), desc(products.id)],
};

/** The given categories and everything below them. */
function inCategoryTrees(ids: number[]): SQL {
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql`${products.categoryId} in (
    with recursive tree as (
      select ${categories.id} as id from ${categories} where ${categories.id} in (${list})
      union
      select c.id from ${categories} c join tree on c.parent_id = tree.id
    ) select id from tree)`;
}

export type ListFilter = {
  page: number;
  limit: number;
  sort?: CatalogSort;
  productType?: ProductType;
  categoryIds?: number[];
  search?: string;
};

type SearchMode = { where: SQL; rank: SQL };

/** Full text over the weighted search document; websearch syntax, so any input is safe. */
function fullTextSearch(search: string): SearchMode {
  const query = sql`websearch_to_tsquery('english', ${search})`;
  return { where: sql`${products.searchDocument} @@ ${query}`, rank: sql`ts_rank_cd(${products.searchDocument}, ${query})` };
}

/** pg_trgm: a title containing a word similar to the search (indexed `<%`, threshold 0.6). */
function similarTitleSearch(search: string): SearchMode {
  return { where: sql`${search} <% ${products.title}`, rank: sql`word_similarity(${search}, ${products.title})` };
}

async function countProducts(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)` }).from(products).innerJoin(users, eq(users.id, products.authorId)).where(where);
  return Number(row?.total ?? 0);
}

/** Reuses a value computed for the same key (the route's short-lived cache); by default, none. */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;
const noMemo: Memo = (_key, load) => load();

/**
 * One page of the catalogue. A search runs full text first and, only when that finds nothing,
 * trigram similarity on titles, so a misspelled word still finds the product. The total and the
 * search mode depend on the filter, not the page: `memo` lets every page of one filter share them.
 */
export async function listProducts(
  db: Db,
  filter: ListFilter,
  currency: DisplayCurrency,
  memo: Memo = noMemo,
): Promise<{ payload: Product[]; meta: CatalogMeta }> {
  const base: (SQL | undefined)[] = [visible];
  if (filter.productType) base.push(eq(products.productType, filter.productType));
  if (filter.categoryIds?.length) base.push(inCategoryTrees(filter.categoryIds));

  const filterKey = JSON.stringify(['count', filter.productType ?? null, filter.categoryIds ?? [], filter.search ?? null]);
  const counted = await memo(filterKey, async () => {
    if (!filter.search) return { total: await countProducts(db, and(...base)), trigram: false };
    const total = await countProducts(db, and(...base, fullTextSearch(filter.search).where));
    if (total > 0) return { total, trigram: false };
    return { total: await countProducts(db, and(...base, similarTitleSearch(filter.search).where)), trigram: true };
  });
  const { total } = counted;
  const mode = filter.search ? (counted.trigram ? similarTitleSearch(filter.search) : fullTextSearch(filter.search)) : undefined;
  const where = and(...base, mode?.where);

  const pages = Math.ceil(total / filter.limit);
  const meta = { total, pages, page: filter.page, limit: filter.limit };
  const offset = (filter.page - 1) * filter.limit;
  if (offset >= total) return { payload: [], meta };

  // An explicit sort wins; a search without one lists the best matches first.
  const order = filter.sort ? sortOrder[filter.sort] : mode ? [desc(mode.rank), desc(products.id)] : sortOrder['id~desc'];
  const rows = await selectProducts(db)
    .where(where)
    .orderBy(...order)
    .limit(filter.limit)
    .offset(offset);
  const payload: Product[] = rows.map((r) => toProduct(r as ProductRow, currency));
  if (filter.productType === 'pack' || payload.some((p) => p.product_type === 'pack')) await attachPackItems(db, payload, currency);
  return { payload, meta };
}

/** Fills `items` of every pack in the list, in the pack's order. */
async function attachPackItems(db: Db, list: Product[], currency: DisplayCurrency) {
  const packIds = list.filter((p) => p.product_type === 'pack').map((p) => p.id);
  if (packIds.length === 0) return;
  const rows = await db
    .select({ ...productFields, packId: packItems.packId })
    .from(packItems)
    .innerJoin(products, eq(products.id, packItems.productId))
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(inArray(packItems.packId, packIds), visible))
    .orderBy(asc(packItems.packId), asc(packItems.position));
  for (const pack of list) {
    if (pack.product_type !== 'pack') continue;
    pack.items = rows.filter((r) => Number(r.packId) === pack.id).map((r) => toProduct(r as ProductRow, currency));
  }
}

/** A published product by numeric id or slug; a pack comes with its items. */
export async function findProduct(db: Db, idOrSlug: string, currency: DisplayCurrency, opts: { packsOnly?: boolean } = {}): Promise<Product | null> {
  const byKey =
    /^\d+$/.test(idOrSlug) && idOrSlug.length < 16
      ? sql`(${products.id} = ${Number(idOrSlug)} or ${products.slug} = ${idOrSlug})`
      : eq(products.slug, idOrSlug);
  const [row] = await selectProducts(db)
    .where(and(visible, byKey, opts.packsOnly ? eq(products.productType, 'pack') : undefined))
    .orderBy(asc(products.id))
    .limit(1);
  if (!row) return null;
  const found: Product = toProduct(row as ProductRow, currency);
  if (found.product_type === 'pack') await attachPackItems(db, [found], currency);
  return found;
}

/** `limit` published products in random order, optionally of one type. */
export async function randomProducts(db: Db, opts: { limit: number; productType?: ProductType }, currency: DisplayCurrency): Promise<ProductBase[]> {
  const rows = await selectProducts(db)
    .where(and(visible, opts.productType ? eq(products.productType, opts.productType) : undefined))
    .orderBy(sql`random()`)
    .limit(opts.limit);
  return rows.map((r) => toProduct(r as ProductRow, currency));
}

/** The most popular products (the storefront's favourites; not a per-user list). */
export async function favoriteProducts(db: Db, opts: { limit: number; productType?: ProductType }, currency: DisplayCurrency): Promise<ProductBase[]> {
  const rows = await selectProducts(db)
    .where(and(visible, opts.productType ? eq(products.productType, opts.productType) : undefined))
    .orderBy(desc(products.popularity), desc(products.id))
    .limit(opts.limit);
  return rows.map((r) => toProduct(r as ProductRow, currency));
}

/** The newest products. */
export async function newProducts(db: Db, opts: { limit: number; productType?: ProductType }, currency: DisplayCurrency): Promise<ProductBase[]> {
  const rows = await selectProducts(db)
    .where(and(visible, opts.productType ? eq(products.productType, opts.productType) : undefined))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(opts.limit);
  return rows.map((r) => toProduct(r as ProductRow, currency));
}

export async function listCategories(db: Db): Promise<Category[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
  return rows.map((r) => ({ id: Number(r.id), parent_id: r.parentId === null ? null : Number(r.parentId), title: r.title, url: r.url }));
}

/** Tags that at least one published product carries, by name. */
export async function listTags(db: Db): Promise<Tag[]> {
  const rows = await db
    .selectDistinct({ id: tags.id, name: tags.name })
    .from(tags)
    .innerJoin(productTags, eq(productTags.tagId, tags.id))
    .innerJoin(products, eq(products.id, productTags.productId))
    .where(eq(products.status, 'published'))
    .orderBy(asc(tags.name), asc(tags.id));
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}
