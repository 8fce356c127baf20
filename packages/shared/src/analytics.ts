import { z } from 'zod';
import { currencyParam } from './catalog';

/**
 * Seller analytics (issue 20): views, sales and revenue per day and per product. Days are UTC dates
 * (YYYY-MM-DD); revenue is in the display currency: the creator's share after commission for a
 * seller, the sales' full price for the platform view (which adds the commission earned).
 */

/** The longest range one answer covers. */
export const ANALYTICS_MAX_DAYS = 366;
/** The range when none is given: the last 30 days, today included. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** The chart's presets on the Sales tab. */
export const ANALYTICS_PRESETS = [7, 30, 90] as const;

const isoDate = (field: string) =>
  z
    .string({ error: `The ${field} date must look like 2026-01-31.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `The ${field} date must look like 2026-01-31.`)
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2999;
    }, `The ${field} date must be a real date (2000 to 2999).`);

/** `?from=&to=`: both optional, inclusive, at most ANALYTICS_MAX_DAYS apart. */
export const analyticsQuery = z.object({ from: isoDate('from').optional(), to: isoDate('to').optional(), currency: currencyParam }).superRefine((q, ctx) => {
  if (!q.from || !q.to) return;
  const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date must not be before the start date.' });
  else if (days >= ANALYTICS_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `A range may cover at most ${ANALYTICS_MAX_DAYS} days.` });
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

const analyticsCurrency = z.object({ code: z.string(), symbol: z.string(), decimals: z.number().int() });

export const analyticsDay = z.object({ date: z.string(), views: z.number().int(), sales: z.number().int(), revenue: z.number() });
export type AnalyticsDay = z.infer<typeof analyticsDay>;

export const analyticsProduct = z.object({ id: z.number().int(), title: z.string(), views: z.number().int(), sales: z.number().int(), revenue: z.number() });
export type AnalyticsProduct = z.infer<typeof analyticsProduct>;

/** Sales per view (0 with no views), to four decimals. */
export const analyticsTotals = z.object({ views: z.number().int(), sales: z.number().int(), revenue: z.number(), conversion: z.number() });

/** GET /api/seller/analytics. */
export const sellerAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  currency: analyticsCurrency,
  days: z.array(analyticsDay),
  totals: analyticsTotals,
  products: z.array(analyticsProduct),
});
export type SellerAnalytics = z.infer<typeof sellerAnalytics>;

/** GET /api/admin/analytics: every sale on the platform, with the commission it earned. */
export const platformAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  currency: analyticsCurrency,
  days: z.array(analyticsDay.extend({ commission: z.number() })),
  totals: analyticsTotals.extend({ commission: z.number() }),
  products: z.array(analyticsProduct.extend({ author: z.string() })),
});
export type PlatformAnalytics = z.infer<typeof platformAnalytics>;

/** The CSV's header line (one row per day, then per product, then the totals; `kind` says which). */
export const ANALYTICS_CSV_COLUMNS = ['kind', 'date', 'product_id', 'title', 'views', 'sales', 'revenue', 'currency'] as const;
