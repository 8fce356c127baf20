import type { Product, ProductType } from '@atelier/shared';
import { type CatalogParams, type CreatorWorksParams, catalogApiQuery, creatorWorksApiQuery } from '@atelier/shared/catalog-url';
import { RANDOM_PRODUCTS_PER_TYPE } from '@atelier/shared/constants';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { contract, envelopeOf, payloadOf, priced } from '../../../lib/api-contract';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSelectedCurrency } from '../../currency';

/** What the products page asks for; every field lives in the URL. */
export type { CatalogParams };

/** The catalogue's answer as the OpenAPI document has it: the products and the pages' meta. */
export type CatalogAnswer = Awaited<ReturnType<typeof fetchCatalog>>;

/** Every price-carrying key holds the currency, so switching it re-prices what is on screen. */
export const catalogKeys = {
  categories: ['catalog', 'categories'] as const,
  list: (p: CatalogParams, currency: string | null) => ['catalog', 'list', p, currency] as const,
  random: (type: ProductType, currency: string | null) => ['catalog', 'random', type, currency] as const,
  product: (slug: string, currency: string | null) => ['catalog', 'product', slug, currency] as const,
  related: (slug: string, currency: string | null) => ['catalog', 'related', slug, currency] as const,
  pack: (slug: string, currency: string | null) => ['catalog', 'pack', slug, currency] as const,
  creator: (p: CreatorWorksParams, currency: string | null) => ['catalog', 'creator', p, currency] as const,
};

/** `currency`: the code the answer's prices must be in (it is part of every price query's key). */
export function fetchCatalog(p: CatalogParams, currency: string | null, signal?: AbortSignal) {
  return envelopeOf(contract.GET('/api/products/catalog', { params: { query: catalogApiQuery(p) }, headers: priced(currency), signal }));
}

const fetchCategories = () => payloadOf(contract.GET('/api/categories'));

/**
 * The category tree, each title in the page's language (issue 18): the store's own categories have
 * words in the dictionaries (`category.<url>`); one staff added later keeps the title they gave it.
 */
export function useCategories() {
  // `t` is new for each language, so the titles follow a switch.
  const { t } = useTranslation();
  const select = useCallback(
    (list: Awaited<ReturnType<typeof fetchCategories>>) => list.map((c) => ({ ...c, title: t(`category.${c.url}`, { defaultValue: c.title }) })),
    [t],
  );
  return useQuery({ queryKey: catalogKeys.categories, queryFn: fetchCategories, staleTime: 10 * 60_000, select });
}

export function useCatalog(p: CatalogParams) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.list(p, currency.code),
    queryFn: ({ signal }) => fetchCatalog(p, currency.code, signal),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

export function useRandomProducts(type: ProductType) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.random(type, currency.code),
    queryFn: ({ signal }) =>
      payloadOf(
        contract.GET('/api/products/random', {
          params: { query: { limit: RANDOM_PRODUCTS_PER_TYPE, product_type: type } },
          headers: priced(currency.code),
          signal,
        }),
      ),
    enabled: currency.ready,
    // The same random pick stays while the visitor is on the page; a new visit gets a new one.
    staleTime: 5 * 60_000,
  });
}

export function useProduct(slug: string) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.product(slug, currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/products/{slug}/info', { params: { path: { slug } }, headers: priced(currency.code), signal })),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/** 'More from {creator}' and 'Similar works' below the buy box (the server renders them with the page). */
export function useRelated(slug: string) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.related(slug, currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/products/{slug}/related', { params: { path: { slug } }, headers: priced(currency.code), signal })),
    enabled: currency.ready,
  });
}

/** A creator's works (the catalogue filtered by author), paged and sorted as the profile's URL says. */
export function useCreatorWorks(p: CreatorWorksParams) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.creator(p, currency.code),
    queryFn: ({ signal }) =>
      envelopeOf(contract.GET('/api/products/catalog', { params: { query: creatorWorksApiQuery(p) }, headers: priced(currency.code), signal })),
    enabled: currency.ready && p.author !== '',
    placeholderData: keepPreviousData,
  });
}

export function usePack(slug: string) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: catalogKeys.pack(slug, currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/packs/{slug}/info', { params: { path: { slug } }, headers: priced(currency.code), signal })),
    enabled: currency.ready,
    placeholderData: keepPreviousData,
  });
}

/**
 * A pack opened as a product (`/products/{id or slug}`) moves to its own address, `/packs/{slug}`:
 * the product answer says it is a pack, and it is the pack's answer too, so that page shows at once.
 */
export function usePackRedirect(product: Product | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const currency = useSelectedCurrency();
  useEffect(() => {
    if (product?.product_type !== 'pack') return;
    queryClient.setQueryData(catalogKeys.pack(product.slug, currency.code), product);
    void navigate(`/packs/${encodeURIComponent(product.slug)}`, { replace: true });
  }, [product, currency.code, queryClient, navigate]);
}
