import { idFromKey, minorToAmount, ratingAverage } from '@atelier/shared';
import { type AnyColumn, and, asc, desc, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products, reviews, staticPages, storefronts, users } from '../../db/schema';
import { visibleProductWhere } from '../../db/visibility';

/** What a shared link or a crawler needs to know about one page. */
export type PageMeta = {
  title: string;
  description: string;
  /** Path on the public site, e.g. /products/aurora-over-fjords. */
  canonicalPath: string;
  /** Public storage key of the page's picture. */
  imageKey: string | null;
  type: 'website' | 'product' | 'profile' | 'article';
  /** schema.org structured data for the page (a product with its rating and first reviews). */
  jsonLd?: Record<string, unknown>;
};

/** Reviews the product page's structured data carries (search engines show a few). */
export const JSON_LD_REVIEWS = 5;

/** A numeric key may be an id or a slug; anything else only a slug. */
function byIdOr(idColumn: AnyColumn, key: string, other: SQL) {
  const id = idFromKey(key);
  return id !== null ? or(sql`${idColumn} = ${id}`, other) : other;
}

export async function productPageMeta(db: Db, key: string, kind: 'product' | 'pack'): Promise<PageMeta | null> {
  const [row] = await db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      description: products.description,
      previewPath: products.previewPath,
      priceMinor: products.priceMinor,
      ratingSum: products.ratingSum,
      ratingCount: products.ratingCount,
      name: users.name,
      surname: users.surname,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(
      and(
        visibleProductWhere,
        kind === 'pack' ? eq(products.productType, 'pack') : ne(products.productType, 'pack'),
        byIdOr(products.id, key, eq(products.slug, key)),
      ),
    )
    .orderBy(asc(products.id))
    .limit(1);
  if (!row) return null;
  const description = row.description || `${row.title} by ${row.name} ${row.surname} on Atelier.`;
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: row.title,
    description,
    brand: { '@type': 'Person', name: `${row.name} ${row.surname}`.trim() },
    offers: { '@type': 'Offer', price: minorToAmount(Number(row.priceMinor)).toFixed(2), priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
  };
  // Stars only when there is something to show: search engines refuse an empty AggregateRating.
  if (row.ratingCount > 0) {
    jsonLd.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: ratingAverage(row.ratingSum, row.ratingCount),
      reviewCount: row.ratingCount,
      bestRating: 5,
      worstRating: 1,
    };
    const first = await db
      .select({ rating: reviews.rating, text: reviews.text, createdAt: reviews.createdAt, nickname: users.nickname })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(and(eq(reviews.productId, row.id), isNull(reviews.hiddenAt)))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(JSON_LD_REVIEWS);
    jsonLd.review = first.map((r) => ({
      '@type': 'Review',
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
      author: { '@type': 'Person', name: r.nickname },
      datePublished: r.createdAt.toISOString().slice(0, 10),
      ...(r.text ? { reviewBody: r.text } : {}),
    }));
  }
  return {
    title: row.title,
    description,
    canonicalPath: `/${kind === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(row.slug)}`,
    imageKey: row.previewPath,
    type: 'product',
    jsonLd,
  };
}

/** A creator's profile: their storefront's headline and banner (issue 34) when set, else what the profile says and the avatar. */
export async function profilePageMeta(db: Db, key: string): Promise<PageMeta | null> {
  const [row] = await db
    .select({
      nickname: users.nickname,
      name: users.name,
      surname: users.surname,
      about: users.aboutMe,
      avatarPath: users.avatarPath,
      headline: storefronts.headline,
      bannerPath: storefronts.bannerPath,
    })
    .from(users)
    .leftJoin(storefronts, eq(storefronts.creatorId, users.id))
    .where(and(isNull(users.deletedAt), isNull(users.moderation), byIdOr(users.id, key, sql`lower(${users.nickname}) = lower(${key})`)))
    .limit(1);
  if (!row) return null;
  return {
    title: `${row.name} ${row.surname} (@${row.nickname})`,
    description: row.headline || row.about || `Works by ${row.name} ${row.surname} on Atelier.`,
    canonicalPath: `/profile/${encodeURIComponent(row.nickname)}`,
    imageKey: row.bannerPath ?? row.avatarPath,
    type: 'profile',
  };
}

export async function staticPageMeta(db: Db, key: string): Promise<PageMeta | null> {
  const [row] = await db
    .select({ slug: staticPages.slug, title: staticPages.title, content: staticPages.content })
    .from(staticPages)
    .where(byIdOr(staticPages.id, key, eq(staticPages.slug, key)))
    .limit(1);
  if (!row) return null;
  const text = row.content
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { title: row.title, description: text || row.title, canonicalPath: `/page/${encodeURIComponent(row.slug)}`, imageKey: null, type: 'article' };
}

export type SitemapEntry = { path: string; lastModified: Date | null };

/** Every public page worth indexing; the sitemap protocol allows 50,000 per file. */
export async function listSitemapEntries(db: Db, max = 50_000): Promise<SitemapEntry[]> {
  const items = await db
    .select({ slug: products.slug, type: products.productType, updatedAt: products.updatedAt })
    .from(products)
    .innerJoin(users, eq(users.id, products.authorId))
    .where(visibleProductWhere)
    .orderBy(asc(products.id))
    .limit(max);
  const people = await db
    .select({ nickname: users.nickname, updatedAt: users.updatedAt })
    .from(users)
    // A profile staff removed after a report (issue 33) is out of the sitemap too.
    .where(and(isNull(users.deletedAt), isNull(users.moderation)))
    .orderBy(asc(users.id))
    .limit(max);
  const pages = await db
    .select({ slug: staticPages.slug, updatedAt: staticPages.updatedAt })
    .from(staticPages)
    .orderBy(asc(staticPages.position), asc(staticPages.id));
  const entries: SitemapEntry[] = [
    { path: '/', lastModified: null },
    { path: '/products', lastModified: null },
    ...items.map((p) => ({ path: `/${p.type === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(p.slug)}`, lastModified: p.updatedAt })),
    ...people.map((u) => ({ path: `/profile/${encodeURIComponent(u.nickname)}`, lastModified: u.updatedAt })),
    ...pages.map((p) => ({ path: `/page/${encodeURIComponent(p.slug)}`, lastModified: p.updatedAt })),
  ];
  return entries.slice(0, max);
}
