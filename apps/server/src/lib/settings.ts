import type { SiteSettings } from '@atelier/shared';
import type { Db } from '../db/client';
import { siteSettings } from '../db/schema';

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

/** Reads every setting from the database, defaults filled in. */
export async function readSettings(db: Db): Promise<SiteSettings> {
  const rows = await db.select().from(siteSettings);
  const out: Record<string, unknown> = { ...settingDefaults };
  for (const row of rows) if (row.key in settingDefaults) out[row.key] = row.value;
  return out as SiteSettings;
}

/** Every settings cache in this process, so a write here clears them at once (others hear NOTIFY). */
const liveCaches = new Set<SettingsCache>();

export type SettingsCache = { get(): Promise<SiteSettings>; clear(): void };

/**
 * Settings are read on many requests and change rarely: keep them, and drop them when the
 * `settings` change notice arrives (trigger on site_settings) or this process writes one.
 * The time limit only bounds a notice lost while the listening connection was down.
 */
export function createSettingsCache(db: Db, ttlMs = 60_000): SettingsCache {
  let cached: { value: Promise<SiteSettings>; at: number } | null = null;
  const cache: SettingsCache = {
    get() {
      if (cached && Date.now() - cached.at < ttlMs) return cached.value;
      const value = readSettings(db);
      const entry = { value, at: Date.now() };
      cached = entry;
      value.catch(() => {
        if (cached === entry) cached = null;
      });
      return value;
    },
    clear() {
      cached = null;
    },
  };
  liveCaches.add(cache);
  return cache;
}

export function forgetSettingsCache(cache: SettingsCache) {
  liveCaches.delete(cache);
}

export async function setSetting<K extends keyof SiteSettings>(db: Db, key: K, value: SiteSettings[K]) {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: new Date() } });
  for (const cache of liveCaches) cache.clear();
}
