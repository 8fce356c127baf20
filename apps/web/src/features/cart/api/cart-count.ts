import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

type CartAnswer = { items?: unknown[]; data?: { items?: unknown[] } };

/**
 * The header badge: the number of items in GET /api/cart (SPEC §7: data.items). Until the cart
 * call exists (or when it fails) the count is undefined and the badge shows no number.
 */
export function useCartCount(enabled: boolean): number | undefined {
  const cart = useQuery({
    queryKey: ['cart'],
    queryFn: () => api<CartAnswer>('/api/cart', { quiet: true }),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
  const items = cart.data?.data?.items ?? cart.data?.items;
  return enabled && Array.isArray(items) ? items.length : undefined;
}
