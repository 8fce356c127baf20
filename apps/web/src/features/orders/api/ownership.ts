import type { Ownership } from '@atelier/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The product page's first call for a signed-in buyer: kept apart from the rest of the orders' calls, so the page downloads only this. */
export const orderKeys = {
  history: (currency: string | null) => ['orders', currency] as const,
  owned: (productId: number) => ['owned', productId] as const,
};

/** GET /api/purchase/owned: whether the signed-in user owns this product, with its downloads. */
export function useOwnership(productId: number, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.owned(productId),
    queryFn: ({ signal }) => api<Ownership>('/api/purchase/owned', { signal, query: { product_id: productId } }),
    enabled,
  });
}
