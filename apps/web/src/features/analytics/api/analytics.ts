import type { PlatformAnalytics, SellerAnalytics } from '@atelier/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSelectedCurrency } from '../../currency';

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

/** GET /api/seller/analytics for the last `days` days, in the display currency. */
export function useSellerAnalytics(days: number) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: analyticsKeys.seller(days, currency.code),
    queryFn: ({ signal }) => api<SellerAnalytics>('/api/seller/analytics', { signal, query: lastDays(days), currency: currency.code }),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/analytics: the same for the whole platform, with the commission earned. */
export function usePlatformAnalytics(days: number) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: analyticsKeys.platform(days, currency.code),
    queryFn: ({ signal }) => api<PlatformAnalytics>('/api/admin/analytics', { signal, query: lastDays(days), currency: currency.code }),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/** Where the CSV of the same range is downloaded. */
export function csvUrl(path: string, days: number, currency: string | null): string {
  const q = new URLSearchParams(lastDays(days));
  if (currency) q.set('currency', currency);
  return `${path}?${q}`;
}
