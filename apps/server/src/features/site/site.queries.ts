import { type Currency, type Dictionary, idFromKey, type SocialLink, type StaticPage, type StaticPageSummary } from '@atelier/shared';
import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactMessages, currencies, languages, socialLinks, staticPages, translations } from '../../db/schema';
import { sanitizePageHtml } from '../../lib/sanitize';

export { readSettings as getSettings, setSetting, settingDefaults } from '../../lib/settings';

export async function listCurrencies(db: Db): Promise<Currency[]> {
  const rows = await db.select().from(currencies).orderBy(asc(currencies.position), asc(currencies.code));
  return rows.map((r) => ({ code: r.code, symbol: r.symbol, value: Number(r.rate), default: r.isDefault, name: r.code, decimals: r.decimals }));
}

export async function listSocialLinks(db: Db): Promise<SocialLink[]> {
  const rows = await db.select().from(socialLinks).orderBy(asc(socialLinks.position), asc(socialLinks.id));
  return rows.map((r) => ({ id: r.id, url: r.url, image: r.image }));
}

function pageSummary(r: typeof staticPages.$inferSelect): StaticPageSummary {
  return { id: r.id, slug: r.slug, title: r.title, is_terms: r.isTerms, is_privacy: r.isPrivacy, is_cookie: r.isCookie };
}

export async function listStaticPages(db: Db): Promise<StaticPageSummary[]> {
  const rows = await db.select().from(staticPages).orderBy(asc(staticPages.position), asc(staticPages.id));
  return rows.map(pageSummary);
}

/** A page by numeric id or by slug. */
export async function findStaticPage(db: Db, idOrSlug: string): Promise<StaticPage | null> {
  const numeric = idFromKey(idOrSlug);
  const where = numeric !== null ? or(eq(staticPages.id, numeric), eq(staticPages.slug, idOrSlug)) : eq(staticPages.slug, idOrSlug);
  const [row] = await db.select().from(staticPages).where(where).limit(1);
  if (!row) return null;
  return { ...pageSummary(row), content: row.content, updated_at: Math.floor(row.updatedAt.getTime() / 1000) };
}

export type StaticPageInput = {
  slug: string;
  title: string;
  content: string;
  isTerms?: number;
  isPrivacy?: number;
  isCookie?: number;
  position?: number;
};

/**
 * The one way a static page is written (seed, back office, imports): its HTML is sanitized here, on
 * every write, so the page route can send what is stored as it is.
 */
export async function saveStaticPage(db: Db, page: StaticPageInput): Promise<number> {
  const values = { ...page, content: sanitizePageHtml(page.content) };
  const [row] = await db
    .insert(staticPages)
    .values(values)
    .onConflictDoUpdate({ target: staticPages.slug, set: { ...values, updatedAt: new Date() } })
    .returning({ id: staticPages.id });
  return row!.id;
}

/** The dictionary for a locale, falling back to the default language key by key. */
export async function getDictionary(db: Db, locale: string): Promise<Dictionary | null> {
  const [lang] = await db.select().from(languages).where(eq(languages.code, locale)).limit(1);
  if (!lang) return null;
  const [fallback] = await db.select().from(languages).where(eq(languages.isDefault, true)).limit(1);
  const out: Dictionary = {};
  if (fallback && fallback.code !== locale) {
    for (const row of await db.select().from(translations).where(eq(translations.locale, fallback.code))) out[row.key] = row.value;
  }
  for (const row of await db.select().from(translations).where(eq(translations.locale, locale))) out[row.key] = row.value;
  return out;
}

export async function saveContactMessage(db: Db, input: { name: string; email: string; message: string; userId: number | null; ip: string }) {
  const [row] = await db.insert(contactMessages).values(input).returning({ id: contactMessages.id });
  return row!.id;
}
