import type { CreateDiscountInput, Discount, PricePreview, UpdateDiscountInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const discountsKey = ['seller-discounts'] as const;

/** GET /api/seller/discounts: the creator's codes and sales with their uses. */
export const useDiscounts = () =>
  useQuery({ queryKey: discountsKey, queryFn: ({ signal }) => api<{ discounts: Discount[] }>('/api/seller/discounts', { signal }).then((a) => a.discounts) });

/** POST /api/seller/discounts. */
export function useCreateDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDiscountInput) => api<{ discount: Discount }>('/api/seller/discounts', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey }),
  });
}

/** PATCH /api/seller/discounts/{id}: pause, resume, dates. */
export function useUpdateDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateDiscountInput }) =>
      api<{ discount: Discount }>(`/api/seller/discounts/${id}`, { method: 'PATCH', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey }),
  });
}

/** DELETE /api/seller/discounts/{id}. */
export function useDeleteDiscount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`/api/seller/discounts/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKey }),
  });
}

/** GET /api/products/{id}/price?discount_code=: the price with a code (a 422 on discount_code says why not). */
export const fetchPricePreview = (productId: number, code: string, currency: string | null) =>
  api<PricePreview>(`/api/products/${productId}/price`, { query: { discount_code: code, currency: currency ?? undefined }, quiet: true });
