import { useQuery } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';

/** Site-wide data: each loads once per visit and is shared by every component that asks. */
export const siteKeys = {
  settings: ['site', 'settings'] as const,
  currencies: ['site', 'currencies'] as const,
  staticPages: ['site', 'static-pages'] as const,
  staticPage: (id: string) => ['site', 'static-pages', id] as const,
  socialLinks: ['site', 'social-links'] as const,
};

const forever = { staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY };

/** Asked before anything else shows (Boot); the server renderer asks them up front too. */
export const settingsQuery = { queryKey: siteKeys.settings, queryFn: () => payloadOf(contract.GET('/api/settings')), ...forever };
export const currenciesQuery = { queryKey: siteKeys.currencies, queryFn: () => payloadOf(contract.GET('/api/currencies')), ...forever };

export const useSettings = () => useQuery(settingsQuery);
export const useCurrencies = () => useQuery(currenciesQuery);
export const useStaticPages = () => useQuery({ queryKey: siteKeys.staticPages, queryFn: () => payloadOf(contract.GET('/api/static-pages')), ...forever });
export const useSocialLinks = () => useQuery({ queryKey: siteKeys.socialLinks, queryFn: () => payloadOf(contract.GET('/api/social-links')), ...forever });
export const useStaticPage = (id: string) =>
  useQuery({ queryKey: siteKeys.staticPage(id), queryFn: () => payloadOf(contract.GET('/api/static-pages/{id}', { params: { path: { id } } })) });
