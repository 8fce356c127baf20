import type { CreateDiscountInput, Discount, LicenceTier, PricePreview, UpdateDiscountInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A creator's own codes, or (staff, in the back office) the platform's codes for platform-owned works. */
export type DiscountScope = 'seller' | 'platform';
const base = (scope: DiscountScope) => (scope === 'seller' ? '/api/seller/discounts' : '/api/admin/discounts');
export const discountsKey = (scope: DiscountScope) => ['discounts', scope] as const;

/** GET /api/seller/discounts: the creator's codes and sales with their uses. */
export const useDiscounts = (scope: DiscountScope) =>
  useQuery({ queryKey: discountsKey(scope), queryFn: ({ signal }) => api<{ discounts: Discount[] }>(base(scope), { signal }).then((a) => a.discounts) });

/** POST /api/seller/discounts. */
export function useCreateDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDiscountInput) => api<{ discount: Discount }>(base(scope), { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** PATCH /api/seller/discounts/{id}: pause, resume, dates. */
export function useUpdateDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateDiscountInput }) =>
      api<{ discount: Discount }>(`${base(scope)}/${id}`, { method: 'PATCH', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** DELETE /api/seller/discounts/{id}. */
export function useDeleteDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`${base(scope)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** GET /api/products/{id}/price?discount_code=: the price with a code (a 422 on discount_code says why not). */
/** A work's price now, with a code (or none: only a running sale) and for a licence (issue 34; commercial when absent). */
export const fetchPricePreview = (productId: number, code: string | undefined, currency: string | null, licenceTier?: LicenceTier) =>
  api<PricePreview>(`/api/products/${productId}/price`, {
    query: { discount_code: code || undefined, currency: currency ?? undefined, licence_tier: licenceTier },
    quiet: true,
  });
