import {
  type CatalogMeta,
  type CatalogSort,
  type Category,
  type FileInfo,
  idFromKey,
  LICENCE_TIERS,
  licencePriceMinor,
  type Product,
  type ProductBase,
  type ProductDetails,
  type ProductLicence,
  type ProductType,
  ratingAverage,
  type Tag,
} from '@atelier/shared';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { categories, favourites, packItems, products, productTags, tags, users } from '../../db/schema';
import { visibleProductAloneWhere, visibleProductWhere } from '../../db/visibility';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';
import { countWords } from '../../lib/file-meta';
import { previewSrcSet } from '../../lib/previews';
import { productSaleSql } from '../discounts';

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
  originalName: products.originalName,
  createdAt: products.createdAt,
  ratingSum: products.ratingSum,
  ratingCount: products.ratingCount,
  authorName: users.name,
  authorSurname: users.surname,
  authorNickname: users.nickname,
  authorAvatarPath: users.avatarPath,
  tags: tagNames,
  // Issue 34: a running automatic sale (features/discounts), shown struck on cards and pages.
  sale: productSaleSql({ id: products.id, priceMinor: products.priceMinor, authorId: products.authorId, platformOwned: products.platformOwned }),
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
  originalName: string | null;
  createdAt: Date;
  ratingSum: number;
  ratingCount: number;
  authorName: string;
  authorSurname: string;
  authorNickname: string;
  authorAvatarPath: string | null;
  tags: string[];
  sale?: { price_minor: number | string; ends_at: string | null } | null;
};

/** "Essay.PDF" → "PDF": the file's kind by its extension (1 to 5 letters or digits), or null. */
export function fileType(name: string | null): string | null {
  const ext = name ? /\.([a-z0-9]{1,5})$/i.exec(name)?.[1] : undefined;
  return ext ? ext.toUpperCase() : null;
}

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
    imageSrcSet: previewSrcSet(row.previewPath),
    file_type: fileType(row.originalName),
    tags: Array.isArray(row.tags) ? row.tags : [],
    price: displayAmount(Number(row.priceMinor), currency),
    currency: currency.code,
    currencySymbol: currency.symbol,
    created_at: Math.floor(new Date(row.createdAt).getTime() / 1000),
    rating_average: ratingAverage(Number(row.ratingSum), Number(row.ratingCount)),
    rating_count: Number(row.ratingCount),
    sale: row.sale
      ? { price: displayAmount(Number(row.sale.price_minor), currency), ends_at: row.sale.ends_at ? new Date(row.sale.ends_at).toISOString() : null }
      : null,
  };
}

/** What every public list shows: published products by authors who still have an account. */
const visible = visibleProductWhere;
/**
 * The same on the products alone, the author checked as an anti-join: products drive the plan (the
 * search index, the sort index), never one index probe per author as a join under a LIMIT can be
 * planned when there are few authors.
 */
const visibleProduct = visibleProductAloneWhere;

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
  // Unrated works last; among equal averages the more reviewed first.
  'rating~desc': [sql`(${products.ratingSum}::float8 / nullif(${products.ratingCount}, 0)) desc nulls last`, desc(products.ratingCount), desc(products.id)],
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

/** A pack with at least one published item of the type. */
function holdsItemsOf(type: ProductType): SQL {
  return sql`exists (select 1 from ${packItems} pi join ${products} item on item.id = pi.product_id
    where pi.pack_id = ${products.id} and item.product_type = ${type} and item.status = 'published' and item.moderation is null)`;
}

export type ListFilter = {
  page: number;
  limit: number;
  sort?: CatalogSort;
  productType?: ProductType;
  categoryIds?: number[];
  /** Packs only: those holding at least one published item of this type (`pack`: every pack). */
  itemType?: ProductType;
  search?: string;
  /** Only the works of this creator: a nickname (case-insensitive) or a user id. */
  author?: string;
  /** Only this user's favourites (GET /favourites; never through the shared cache). */
  favouritedBy?: number;
};

/** The creator a key names: a user id, or a nickname in any case (as /profile/{nickname} reads it). */
function byAuthor(key: string): SQL {
  const id = idFromKey(key);
  const named =
    id !== null ? sql`(${users.id} = ${id} or lower(${users.nickname}) = ${key.toLowerCase()})` : sql`lower(${users.nickname}) = ${key.toLowerCase()}`;
  return sql`${products.authorId} in (select ${users.id} from ${users} where ${named})`;
}

/**
 * The search as full text reads it (websearch syntax, so any input is safe), and the same query with
 * each word of 5 or more letters widened to the catalogue's words within its typo budget (one typo,
 * two from 9 letters; migration 0006). Both as tsquery text; equal when no word has a near neighbour.
 */
async function searchQueries(db: Db, search: string): Promise<{ exact: string; withTypos: string }> {
  const result = await db.execute(
    sql`select websearch_to_tsquery('english', ${search})::text as exact, search_query_with_typos(${search})::text as with_typos`,
  );
  const [row] = rowsOf<{ exact: string; with_typos: string }>(result);
  return { exact: row?.exact ?? '', withTypos: row?.with_typos ?? '' };
}

/**
 * Up to this many matches a total is counted and a search ranks every match; past it, counting and
 * ranking would read every matching row (a common word matches a fifth of a million products), so the
 * total is the planner's estimate and a search by relevance ranks a window of this many.
 */
export const COUNTED_UP_TO = 1000;

type Total = { total: number; estimated: boolean };

/**
 * The number of visible products matching `where`: counted while it is at most COUNTED_UP_TO (reading
 * at most one row more), else the planner's estimate when that agrees it is large. When the planner
 * guesses low, the rows are counted after all: slower, never wrong by much.
 */
async function totalOf(db: Db, where: SQL | undefined): Promise<Total> {
  // A fresh builder each time: drizzle's builders change in place.
  const matching = () => db.select({ one: sql`1` }).from(products).where(where);
  const [bounded] = await db.select({ n: sql<number>`count(*)` }).from(
    matching()
      .limit(COUNTED_UP_TO + 1)
      .as('m'),
  );
  const n = Number(bounded?.n ?? 0);
  if (n <= COUNTED_UP_TO) return { total: n, estimated: false };
  const estimate = await estimateRows(db, matching().getSQL());
  if (estimate > COUNTED_UP_TO) return { total: estimate, estimated: true };
  const [all] = await db.select({ n: sql<number>`count(*)` }).from(matching().as('m'));
  return { total: Number(all?.n ?? 0), estimated: false };
}

/** The planner's row estimate for a query (EXPLAIN, nothing run). */
async function estimateRows(db: Db, query: SQL): Promise<number> {
  const result = await db.execute(sql`explain (format json) ${query}`);
  const [row] = rowsOf<Record<string, unknown>>(result);
  const raw = row ? Object.values(row)[0] : undefined;
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return Math.round(Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0));
}

/** Reuses a value computed for the same key (the route's short-lived cache); by default, none. */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;
const noMemo: Memo = (_key, load) => load();

/**
 * One page of the catalogue. A search is full text that forgives typos in longer words; exact
 * matches come before typo matches. The total and the search's queries depend on the filter, not the
 * page: `memo` lets every page of one filter share them.
 */
export async function listProducts(
  db: Db,
  filter: ListFilter,
  currency: DisplayCurrency,
  memo: Memo = noMemo,
): Promise<{ payload: Product[]; meta: CatalogMeta }> {
  const base: (SQL | undefined)[] = [visibleProduct];
  if (filter.productType) base.push(eq(products.productType, filter.productType));
  if (filter.categoryIds?.length) base.push(inCategoryTrees(filter.categoryIds));
  if (filter.itemType && filter.itemType !== 'pack') base.push(holdsItemsOf(filter.itemType));
  if (filter.author) base.push(byAuthor(filter.author));
  if (filter.favouritedBy !== undefined) {
    base.push(sql`exists (select 1 from ${favourites} where ${favourites.productId} = ${products.id} and ${favourites.userId} = ${filter.favouritedBy})`);
  }

  const offset = (filter.page - 1) * filter.limit;
  // `pageable`: how many of the matches can be paged through (a search by relevance: its window).
  const metaOf = ({ total, estimated }: Total, pageable = total): CatalogMeta => ({
    total,
    pages: Math.ceil(Math.min(total, pageable) / filter.limit),
    page: filter.page,
    limit: filter.limit,
    ...(estimated ? { total_estimated: true as const } : {}),
  });

  let total: Total;
  let rows: ProductRow[];
  if (filter.search) {
    const search = filter.search;
    const queries = await memo(JSON.stringify(['search', search]), () => searchQueries(db, search));
    // Only stop words, or nothing searchable: nothing matches.
    if (queries.exact === '') return { payload: [], meta: metaOf({ total: 0, estimated: false }) };
    const found = await searchPage(db, and(...base)!, queries, filter, offset, memo);
    total = found.total;
    if (found.ids.length === 0) return { payload: [], meta: metaOf(total, found.pageable) };
    const byId = new Map((await selectProducts(db).where(inArray(products.id, found.ids))).map((r) => [Number(r.id), r as ProductRow]));
    rows = found.ids.map((id) => byId.get(id)).filter((r): r is ProductRow => r !== undefined);
    const payload: Product[] = rows.map((r) => toProduct(r, currency));
    if (payload.some((p) => p.product_type === 'pack')) await attachPackItems(db, payload, currency);
    return { payload, meta: metaOf(total, found.pageable) };
  } else {
    // The total depends on the filter, not the page: every page of one filter shares it.
    const filterKey = JSON.stringify([
      'count',
      filter.productType ?? null,
      filter.categoryIds ?? [],
      filter.itemType ?? null,
      filter.author?.toLowerCase() ?? null,
      filter.favouritedBy ?? null,
    ]);
    total = await memo(filterKey, () => totalOf(db, and(...base)));
    if (offset >= total.total) return { payload: [], meta: metaOf(total) };
    rows = (await selectProducts(db)
      .where(and(...base))
      .orderBy(...sortOrder[filter.sort ?? 'id~desc'])
      .limit(filter.limit)
      .offset(offset)) as ProductRow[];
  }

  const payload: Product[] = rows.map((r) => toProduct(r, currency));
  if (payload.some((p) => p.product_type === 'pack')) await attachPackItems(db, payload, currency);
  return { payload, meta: metaOf(total) };
}

/** The sorts an index serves (the primary key, products_status_created_idx, products_rating_idx). */
const SORTS_WITH_INDEX = new Set<CatalogSort>(['id~desc', 'id~asc', 'created_at~desc', 'rating~desc']);

/** The orders of sortOrder, over the columns of a search's collected matches. */
const searchSortOrder: Record<CatalogSort, string> = {
  'id~desc': 'id desc',
  'id~asc': 'id asc',
  'price~asc': 'price_minor asc, id desc',
  'price~desc': 'price_minor desc, id desc',
  'created_at~desc': 'created_at desc, id desc',
  'popularity~desc': 'popularity desc, id desc',
  'rating~desc': 'rating desc nulls last, rating_count desc, id desc',
};

/**
 * The page of a search, as ids, with the total and how many of the matches can be paged.
 *
 * Under an explicit sort: when the planner expects many matches and the sort has an index, the first
 * COUNTED_UP_TO products in that order are tested and the matches among them are the page, exactly.
 * Otherwise (rare words, a sort without an index, matches too sparse at the top of the order) the
 * window below is collected and sorted: every match, exactly, when there are at most COUNTED_UP_TO;
 * past that, the window's first COUNTED_UP_TO in the sort's order.
 *
 * By relevance: products matching the words as typed come first, then those found only through a
 * typo, each by full-text rank. Ranking reads every row it ranks, so it ranks a window: the first
 * COUNTED_UP_TO + 1 matches as typed and as many typo-only ones, as the index hands them out. With no
 * more than COUNTED_UP_TO of each the window holds every match, so the order and the total are exact;
 * past it, the total is estimated and only the window's best COUNTED_UP_TO can be paged (as search
 * engines cap their hits), and an exact match never follows a typo match.
 */
async function searchPage(
  db: Db,
  where: SQL,
  queries: { exact: string; withTypos: string },
  filter: ListFilter,
  offset: number,
  memo: Memo,
): Promise<{ total: Total; pageable: number; ids: number[] }> {
  const query = sql`${queries.withTypos}::tsquery`;
  const exactQuery = sql`${queries.exact}::tsquery`;
  const matches = sql`${products.searchDocument} @@ ${query}`;
  const memoKey = (kind: string) =>
    JSON.stringify([
      kind,
      queries.withTypos,
      filter.productType ?? null,
      filter.categoryIds ?? [],
      filter.itemType ?? null,
      filter.author?.toLowerCase() ?? null,
      filter.favouritedBy ?? null,
    ]);

  const window = COUNTED_UP_TO + 1;
  if (filter.sort) {
    const estimate = () =>
      memo(memoKey('search-estimate'), () => estimateRows(db, db.select({ one: sql`1` }).from(products).where(and(where, matches)).getSQL()));
    // Common words under a sort that has an index: the first COUNTED_UP_TO products in that order
    // are tested, and the matches met among them, in order, are the page exactly.
    if (SORTS_WITH_INDEX.has(filter.sort) && offset + filter.limit <= COUNTED_UP_TO) {
      const expected = await estimate();
      if (expected > COUNTED_UP_TO) {
        const order = sql.join(sortOrder[filter.sort], sql`, `);
        const walked = await db.execute(sql`
          select id from (
            select ${products.id} as id, ${products.searchDocument} as doc, row_number() over (order by ${order}) as position
            from ${products} where ${where} order by ${order} limit ${COUNTED_UP_TO}
          ) s
          where doc @@ ${query} order by position limit ${filter.limit} offset ${offset}`);
        const ids = rowsOf<{ id: number | string }>(walked).map((r) => Number(r.id));
        if (ids.length === filter.limit) {
          const total = { total: Math.max(expected, offset + ids.length), estimated: true };
          return { total, pageable: total.total, ids };
        }
      }
    }
    // Else the matches collected from the search index, up to one past the counted limit: with no
    // more, all of them, counted and sorted exactly; past it, the window is sorted.
    const order = sql.raw(searchSortOrder[filter.sort]);
    const result = await db.execute(sql`
      with w as materialized (
        select ${products.id} as id, ${products.priceMinor} as price_minor, ${products.createdAt} as created_at, ${products.popularity} as popularity,
               ${products.ratingSum}::float8 / nullif(${products.ratingCount}, 0) as rating, ${products.ratingCount} as rating_count
        from ${products}
        where ${where} and ${matches}
        limit ${window}
      )
      select c.n, p.id
      from (select count(*) as n from w) c
      left join lateral (select id from w order by ${order} limit ${filter.limit} offset ${offset}) p on true`);
    const list = rowsOf<{ n: number | string; id: number | string | null }>(result);
    const n = Number(list[0]?.n ?? 0);
    const ids = list.filter((r) => r.id !== null).map((r) => Number(r.id));
    if (n <= COUNTED_UP_TO) return { total: { total: n, estimated: false }, pageable: n, ids };
    const total = { total: Math.max(await estimate(), n), estimated: true };
    return { total, pageable: COUNTED_UP_TO, ids: offset + ids.length > COUNTED_UP_TO ? ids.slice(0, Math.max(0, COUNTED_UP_TO - offset)) : ids };
  }

  const typoOnly =
    queries.withTypos === queries.exact
      ? sql``
      : sql`union all (
          select ${products.id} as id, false as exact, ${products.searchDocument} as doc
          from ${products}
          where ${where} and ${matches} and not (${products.searchDocument} @@ ${exactQuery})
          limit ${window})`;
  const result = await db.execute(sql`
    with w as materialized (
      (select ${products.id} as id, true as exact, ${products.searchDocument} as doc
       from ${products}
       where ${where} and ${products.searchDocument} @@ ${exactQuery}
       limit ${window})
      ${typoOnly}
    ),
    c as (select count(*) filter (where exact) as exact_n, count(*) filter (where not exact) as typo_n from w)
    select c.exact_n, c.typo_n, p.id
    from c
    left join lateral (
      select id from w order by exact desc, ts_rank(doc, ${query}) desc, id desc
      limit ${filter.limit} offset ${offset}
    ) p on true`);
  const list = rowsOf<{ exact_n: number | string; typo_n: number | string; id: number | string | null }>(result);
  const exactN = Number(list[0]?.exact_n ?? 0);
  const typoN = Number(list[0]?.typo_n ?? 0);
  const ids = list.filter((r) => r.id !== null).map((r) => Number(r.id));
  if (exactN <= COUNTED_UP_TO && typoN <= COUNTED_UP_TO) {
    const total = { total: exactN + typoN, estimated: false };
    return { total, pageable: total.total, ids };
  }
  const estimate = await memo(memoKey('search-estimate'), () =>
    estimateRows(db, db.select({ one: sql`1` }).from(products).where(and(where, matches)).getSQL()),
  );
  const total = { total: Math.max(estimate, exactN + typoN), estimated: true };
  // Only the window's first COUNTED_UP_TO can be paged: past an overflowing exact part lie more exact matches.
  const pageable = Math.min(COUNTED_UP_TO, total.total);
  return { total, pageable, ids: offset + ids.length > pageable ? ids.slice(0, Math.max(0, pageable - offset)) : ids };
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
  const packPrices = await db.select({ id: products.id, priceMinor: products.priceMinor }).from(products).where(inArray(products.id, packIds));
  for (const pack of list) {
    if (pack.product_type !== 'pack') continue;
    const items = rows.filter((r) => Number(r.packId) === pack.id);
    pack.items = items.map((r) => toProduct(r as ProductRow, currency));
    const packMinor = Number(packPrices.find((p) => Number(p.id) === pack.id)?.priceMinor ?? 0);
    pack.saving = packSaving(
      items.reduce((s, r) => s + Number(r.priceMinor), 0),
      packMinor,
      currency,
    );
  }
}

/**
 * What a pack saves against buying its works still for sale one by one (issue 34), in the display
 * currency: the works' prices added up, the difference, and the percent rounded down (never overstated).
 * Null when the pack does not cost less.
 */
function packSaving(itemsMinor: number, packMinor: number, currency: DisplayCurrency): ProductDetails['saving'] {
  if (itemsMinor <= 0 || packMinor >= itemsMinor) return null;
  return {
    items_price: displayAmount(itemsMinor, currency),
    amount: displayAmount(itemsMinor - packMinor, currency),
    percent: Math.floor(((itemsMinor - packMinor) * 100) / itemsMinor),
  };
}

/** A published product by numeric id or slug; a pack comes with its items. */
export async function findProduct(db: Db, idOrSlug: string, currency: DisplayCurrency, opts: { packsOnly?: boolean } = {}): Promise<ProductDetails | null> {
  const id = idFromKey(idOrSlug);
  const byKey = id !== null ? sql`(${products.id} = ${id} or ${products.slug} = ${idOrSlug})` : eq(products.slug, idOrSlug);
  const [row] = await selectProducts(db)
    .where(and(visible, byKey, opts.packsOnly ? eq(products.productType, 'pack') : undefined))
    .orderBy(asc(products.id))
    .limit(1);
  if (!row) return null;
  const found: Product = toProduct(row as ProductRow, currency);
  if (found.product_type === 'pack') await attachPackItems(db, [found], currency);
  return { ...found, ...(await trustSignals(db, found.id, currency)) };
}

/**
 * A product page's trust signals (issue 31 item 7): how many orders bought the work (alone or inside
 * a pack; a pack: the orders that bought it) and still stand, the author's own purchases left out, on
 * order_items' product and pack indexes (migration 0046); and what the buyer gets: the measured file
 * of an image or document, the text of a prompt with the model its category names.
 */
async function trustSignals(
  db: Db,
  productId: number,
  currency: DisplayCurrency,
): Promise<{ sales_count: number; file: FileInfo | null; licences: ProductLicence[] }> {
  const sales = sql<number>`(select count(distinct oi.order_id) from order_items oi join orders o on o.id = oi.order_id
    where (oi.product_id = ${products.id} or oi.pack_id = ${products.id}) and oi.refunded_at is null
      and o.status = 'success' and o.buyer_id <> ${products.authorId})`;
  const [row] = await db
    .select({
      productType: products.productType,
      fileMeta: products.fileMeta,
      promptText: products.promptText,
      categoryTitle: categories.title,
      categoryUrl: categories.url,
      sales,
      priceMinor: products.priceMinor,
      personalPriceMinor: products.personalPriceMinor,
      extendedPriceMinor: products.extendedPriceMinor,
    })
    .from(products)
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(products.id, productId));
  if (!row) return { sales_count: 0, file: null, licences: [] };
  const sales_count = Number(row.sales ?? 0);
  // The licences offered (issue 34), narrowest first; a pack sells the commercial licence only.
  const licences = LICENCE_TIERS.flatMap((tier) => {
    const minor = row.productType === 'pack' && tier !== 'commercial' ? null : licencePriceMinor({ ...row, priceMinor: Number(row.priceMinor) }, tier);
    return minor === null ? [] : [{ tier, price: displayAmount(minor, currency) }];
  });
  if (row.productType === 'prompt') {
    const text = row.promptText ?? '';
    const model = row.categoryUrl?.startsWith('prompts/') && row.categoryTitle ? row.categoryTitle : undefined;
    // As the download gives it: the text and a closing line break, as a .txt file.
    return {
      sales_count,
      licences,
      file: { format: 'TXT', bytes: Buffer.byteLength(`${text}\n`, 'utf8'), words: countWords(text), ...(model ? { model } : {}) },
    };
  }
  const meta = row.fileMeta;
  return { sales_count, licences, file: row.productType === 'pack' || !meta ? null : { ...meta } };
}

/** Which product a key names and who wrote it, for counting its views (features/analytics). */
export async function productOwner(db: Db, idOrSlug: string, opts: { packsOnly?: boolean } = {}): Promise<{ id: number; authorId: number } | null> {
  const id = idFromKey(idOrSlug);
  const byKey = id !== null ? sql`(${products.id} = ${id} or ${products.slug} = ${idOrSlug})` : eq(products.slug, idOrSlug);
  const [row] = await db
    .select({ id: products.id, authorId: products.authorId })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(visible, byKey, opts.packsOnly ? eq(products.productType, 'pack') : undefined))
    .orderBy(asc(products.id))
    .limit(1);
  return row ?? null;
}

/**
 * What the product page shows below the buy box, one query per row, both on indexes: the author's
 * other published works (newest first, products_author_idx), and works of the same type ranked by the
 * tags they share with it (product_tags' two indexes), then the same category, then their rating.
 */
export async function relatedProducts(
  db: Db,
  idOrSlug: string,
  currency: DisplayCurrency,
  limit: number,
): Promise<{ moreFrom: ProductBase[]; similar: ProductBase[] } | null> {
  const id = idFromKey(idOrSlug);
  const byKey = id !== null ? sql`(${products.id} = ${id} or ${products.slug} = ${idOrSlug})` : eq(products.slug, idOrSlug);
  const [me] = await db
    .select({ id: products.id, authorId: products.authorId, productType: products.productType, categoryId: products.categoryId })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(and(visible, byKey))
    .orderBy(asc(products.id))
    .limit(1);
  if (!me) return null;
  const moreFrom = await selectProducts(db)
    .where(and(visible, eq(products.authorId, me.authorId), sql`${products.id} <> ${me.id}`))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
  // Candidates: works sharing a tag, plus the newest of the same category, so an untagged work still has neighbours.
  const shared = sql<number>`(select count(*) from ${productTags} pt where pt.product_id = ${products.id}
    and pt.tag_id in (select tag_id from ${productTags} where product_id = ${me.id}))`;
  const candidates = sql`${products.id} in (
      select pt.product_id from ${productTags} pt where pt.tag_id in (select tag_id from ${productTags} where product_id = ${me.id})
      union all
      (select c.id from ${products} c where c.category_id = ${me.categoryId ?? null} and c.status = 'published' order by c.id desc limit 200)
    )`;
  const similar = await selectProducts(db)
    .where(and(visible, eq(products.productType, me.productType), sql`${products.id} <> ${me.id}`, candidates))
    .orderBy(
      sql`${shared} desc`,
      sql`(${products.categoryId} is not distinct from ${me.categoryId ?? null}) desc`,
      sql`(${products.ratingSum}::float8 / nullif(${products.ratingCount}, 0)) desc nulls last`,
      desc(products.id),
    )
    .limit(limit);
  return { moreFrom: moreFrom.map((r) => toProduct(r as ProductRow, currency)), similar: similar.map((r) => toProduct(r as ProductRow, currency)) };
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

/** The given works as cards, in the given order, only those the public may see (a storefront's featured works). */
export async function visibleProductsByIds(db: Db, ids: number[], currency: DisplayCurrency): Promise<ProductBase[]> {
  if (ids.length === 0) return [];
  const rows = await selectProducts(db).where(and(visible, inArray(products.id, ids)));
  const byId = new Map(rows.map((r) => [Number(r.id), toProduct(r as ProductRow, currency)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
