import type { CreateDiscountInput, LicenceTier, UpdateDiscountInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf, priced, quiet } from '../../../lib/api-contract';

/** A creator's own codes, or (staff, in the back office) the platform's codes for platform-owned works. */
export type DiscountScope = 'seller' | 'platform';
export const discountsKey = (scope: DiscountScope) => ['discounts', scope] as const;

/** GET /api/seller/discounts: the creator's codes and sales with their uses. */
export const useDiscounts = (scope: DiscountScope) =>
  useQuery({
    queryKey: discountsKey(scope),
    queryFn: ({ signal }) =>
      payloadOf(scope === 'seller' ? contract.GET('/api/seller/discounts', { signal }) : contract.GET('/api/admin/discounts', { signal })).then(
        (a) => a.discounts,
      ),
  });

/** POST /api/seller/discounts. */
export function useCreateDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDiscountInput) =>
      payloadOf(scope === 'seller' ? contract.POST('/api/seller/discounts', { body: input }) : contract.POST('/api/admin/discounts', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** PATCH /api/seller/discounts/{id}: pause, resume, dates. */
export function useUpdateDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateDiscountInput }) =>
      payloadOf(
        scope === 'seller'
          ? contract.PATCH('/api/seller/discounts/{id}', { params: { path: { id } }, body: input })
          : contract.PATCH('/api/admin/discounts/{id}', { params: { path: { id } }, body: input }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** DELETE /api/seller/discounts/{id}. */
export function useDeleteDiscount(scope: DiscountScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      payloadOf(
        scope === 'seller'
          ? contract.DELETE('/api/seller/discounts/{id}', { params: { path: { id } } })
          : contract.DELETE('/api/admin/discounts/{id}', { params: { path: { id } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey(scope) }),
  });
}

/** GET /api/products/{id}/price?discount_code=: the price with a code (a 422 on discount_code says why not). */
/** A work's price now, with a code (or none: only a running sale) and for a licence (issue 34; commercial when absent). */
export const fetchPricePreview = (productId: number, code: string | undefined, currency: string | null, licenceTier?: LicenceTier) =>
  payloadOf(
    contract.GET('/api/products/{id}/price', {
      params: { path: { id: productId }, query: { discount_code: code || undefined, licence_tier: licenceTier } },
      headers: priced(currency),
      ...quiet,
    }),
  );
