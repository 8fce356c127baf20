import { type Currency, type Dictionary, idFromKey, type SiteSettings, type SocialLink, type StaticPage, type StaticPageSummary } from '@atelier/shared';
import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactMessages, currencies, languages, siteSettings, socialLinks, staticPages, translations } from '../../db/schema';

/** SPEC §3 defaults, used for any setting that has no row. */
export const settingDefaults: SiteSettings = {
  is_reg_enabled: false,
  is_email_verification_enabled: false,
  internal_currency_name: 'Credits',
  formats: [],
  sizes: [],
  google_tag: '',
  requisites: '',
  support_email: '',
  copyright: '',
};

export async function getSettings(db: Db): Promise<SiteSettings> {
  const rows = await db.select().from(siteSettings);
  const out: Record<string, unknown> = { ...settingDefaults };
  for (const row of rows) if (row.key in settingDefaults) out[row.key] = row.value;
  return out as SiteSettings;
}

export async function setSetting<K extends keyof SiteSettings>(db: Db, key: K, value: SiteSettings[K]) {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: new Date() } });
}

export async function listCurrencies(db: Db): Promise<Currency[]> {
  const rows = await db.select().from(currencies).orderBy(asc(currencies.position), asc(currencies.code));
  return rows.map((r) => ({ code: r.code, symbol: r.symbol, value: Number(r.rate), default: r.isDefault, name: r.code }));
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
