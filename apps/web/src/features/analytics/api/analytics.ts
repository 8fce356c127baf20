import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ApiPayload, contract, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

/** Whose sales a report covers: the signed-in creator's, or the whole platform's (staff only). */
export type AnalyticsScope = 'seller' | 'platform';

type ReportOf = { seller: ApiPayload<'/api/seller/analytics', 'get'>; platform: ApiPayload<'/api/admin/analytics', 'get'> };

/** Where each scope's report is read; its CSV is the same path with `.csv`. */
const analyticsPaths: Record<AnalyticsScope, string> = {
  seller: '/api/seller/analytics',
  platform: '/api/admin/analytics',
};

/** The range of the last `days` days, today included, as the API's UTC dates. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

export const analyticsKeys = {
  seller: (days: number, currency: string | null) => ['seller-analytics', days, currency] as const,
  platform: (days: number, currency: string | null) => ['platform-analytics', days, currency] as const,
};

/**
 * GET /api/seller/analytics (the creator's views, sales and earnings) or /api/admin/analytics (the
 * same for the whole platform, with the commission earned) for the last `days` days, in the display
 * currency.
 */
type Fetch<R> = (days: number, currency: string | null, signal: AbortSignal) => Promise<R>;

const fetchReport: { [S in AnalyticsScope]: Fetch<ReportOf[S]> } = {
  seller: (days, currency, signal) =>
    payloadOf(contract.GET('/api/seller/analytics', { signal, params: { query: lastDays(days) }, headers: priced(currency) })),
  platform: (days, currency, signal) =>
    payloadOf(contract.GET('/api/admin/analytics', { signal, params: { query: lastDays(days) }, headers: priced(currency) })),
};

export function useAnalytics<S extends AnalyticsScope>(scope: S, days: number) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: analyticsKeys[scope](days, currency.code),
    queryFn: ({ signal }) => fetchReport[scope](days, currency.code, signal),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/** Where the CSV of the same scope and range is downloaded. */
export function csvUrl(scope: AnalyticsScope, days: number, currency: string | null): string {
  const q = new URLSearchParams(lastDays(days));
  if (currency) q.set('currency', currency);
  return `${analyticsPaths[scope]}.csv?${q}`;
}
