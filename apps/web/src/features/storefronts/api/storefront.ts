import type { UpdateStorefrontInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiEnvelope } from '../../../lib/api-client';
import { type ApiAnswer, contract, envelopeOf, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

/** Storefronts (issue 34): the public storefront on a profile, and the owner's editor. */
export const storefrontKeys = {
  own: ['storefront', 'own'] as const,
  /** Prices ride in the featured works, so the currency is part of the key. */
  public: (key: string, currency: string | null) => ['storefront', 'public', key, currency] as const,
};

/** GET /api/creators/{key}/storefront: banner, headline, links, featured works, followers and sales. */
export function useStorefront(key: string) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: storefrontKeys.public(key, currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/creators/{key}/storefront', { params: { path: { key } }, headers: priced(currency.code), signal })),
    enabled: currency.ready && key !== '',
  });
}

/** GET /api/seller/storefront: what the creator saved, and the works they may feature. */
export const useOwnStorefront = () =>
  useQuery({ queryKey: storefrontKeys.own, queryFn: ({ signal }) => payloadOf(contract.GET('/api/seller/storefront', { signal })) });

type Answer = ApiAnswer<'/api/seller/storefront', 'put'>;

function useStoreOwn() {
  const queryClient = useQueryClient();
  return (answer: Answer) => {
    queryClient.setQueryData(storefrontKeys.own, answer.payload);
    // The public storefront (any currency) shows it next.
    void queryClient.invalidateQueries({ queryKey: ['storefront', 'public'] });
  };
}

/** PUT /api/seller/storefront: headline, links and featured works at once. */
export function useSaveStorefront() {
  const store = useStoreOwn();
  return useMutation({
    mutationFn: (input: UpdateStorefrontInput) => envelopeOf(contract.PUT('/api/seller/storefront', { body: input })),
    onSuccess: store,
  });
}

/** POST /api/seller/storefront/banner (multipart, field `banner`). */
export function useUploadBanner() {
  const store = useStoreOwn();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('banner', file);
      // Multipart: the document types no body for it, so it goes through apiEnvelope with the answer typed from the document.
      return apiEnvelope<ApiAnswer<'/api/seller/storefront/banner', 'post'>>('/api/seller/storefront/banner', { method: 'POST', body: form });
    },
    onSuccess: store,
  });
}

/** DELETE /api/seller/storefront/banner. */
export function useRemoveBanner() {
  const store = useStoreOwn();
  return useMutation({ mutationFn: () => envelopeOf(contract.DELETE('/api/seller/storefront/banner')), onSuccess: store });
}
