import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { siteSettings } from '../../db/schema';
import { appCache } from '../../lib/app-cache';

/**
 * Server-side commerce settings (rows in site_settings, edited by the back office), with defaults.
 * Amounts are in major units of the currency they apply to, as staff type them.
 */
export type CommerceSettings = {
  /** Percent of each sale kept as platform revenue. */
  commission_percent: number;
  /** Deposit bounds, in the currency the user pays in. */
  deposit_min: number;
  deposit_max: number;
  /** Price of one generated image, in EUR. */
  generation_price: number;
  /** Days a creator's share of a sale stays pending before it can be spent or withdrawn (0: at once). */
  earnings_clearing_days: number;
  /** The smallest withdrawal of earnings, in EUR. */
  withdrawal_min: number;
};

export const commerceDefaults: CommerceSettings = {
  commission_percent: 20,
  deposit_min: 5,
  deposit_max: 1000,
  generation_price: 1,
  earnings_clearing_days: 7,
  withdrawal_min: 10,
};

export async function getCommerceSettings(db: Db): Promise<CommerceSettings> {
  const keys = Object.keys(commerceDefaults);
  const rows = await db.select().from(siteSettings).where(inArray(siteSettings.key, keys));
  const out = { ...commerceDefaults };
  for (const row of rows) {
    const value = Number(row.value);
    if (Number.isFinite(value) && value >= 0) out[row.key as keyof CommerceSettings] = value;
  }
  out.commission_percent = Math.min(100, out.commission_percent);
  out.earnings_clearing_days = Math.min(365, Math.floor(out.earnings_clearing_days));
  return out;
}

/**
 * The commerce settings as this app server keeps them: read once, and read again when PostgreSQL says
 * site_settings changed (the `settings` topic of the change feed), like the site settings of
 * lib/settings.ts. Hot paths (every purchase) use this instead of a query.
 */
export const commerceSettingsOf: (app: FastifyInstance) => Promise<CommerceSettings> = appCache('settings', (app) => getCommerceSettings(app.db));

/** The platform's share of a sale, rounded to the cent (half up). */
export function commissionOf(priceMinor: number, percent: number): number {
  return Math.min(priceMinor, Math.round((priceMinor * percent) / 100));
}
