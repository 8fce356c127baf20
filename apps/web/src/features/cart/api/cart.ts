import type { AddCartItemInput, Cart, CheckoutSummary, PurchaseResult } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { useSelectedCurrency } from '../../currency';

/** Every cart key starts with 'cart', so one invalidation refreshes the page, the checkout and the header badge. */
export const cartKeys = {
  all: ['cart'] as const,
  cart: (currency: string | null) => ['cart', 'items', currency] as const,
  checkout: (currency: string | null) => ['cart', 'checkout', currency] as const,
};

/** SPEC §4: a 401 on fetch clears the cart silently (an empty cart, not an error). */
export async function fetchCart(currency: string | null, signal?: AbortSignal): Promise<Cart> {
  try {
    return await api<Cart>('/api/cart', { signal, quiet: true, query: { currency } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { items: [], total: 0, currency: currency ?? 'EUR', currencySymbol: '€' };
    throw err;
  }
}

export function useCart(enabled = true) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: cartKeys.cart(currency.code),
    queryFn: ({ signal }) => fetchCart(currency.code, signal),
    enabled: enabled && currency.ready,
    retry: false,
  });
}

/** Add or remove answers the updated cart; it replaces the cached one (SPEC §4). */
function useStoreCart() {
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return (cart: Cart) => {
    queryClient.setQueryData(cartKeys.cart(currency.code), cart);
    void queryClient.invalidateQueries({ queryKey: cartKeys.checkout(currency.code) });
  };
}

export function useAddToCart() {
  const store = useStoreCart();
  return useMutation({
    mutationFn: (input: AddCartItemInput) => api<Cart>('/api/cart/items', { method: 'POST', body: input }),
    onSuccess: store,
  });
}

export function useRemoveFromCart() {
  const store = useStoreCart();
  return useMutation({
    mutationFn: (lineId: number) => api<Cart>(`/api/cart/items/${lineId}`, { method: 'DELETE' }),
    onSuccess: store,
  });
}

/** POST /api/cart/checkout: what paying from the balance would do (nothing is charged). */
export function useCheckoutSummary() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: cartKeys.checkout(currency.code),
    queryFn: ({ signal }) => api<CheckoutSummary>('/api/cart/checkout', { method: 'POST', signal, currency: currency.code }),
    enabled: currency.ready,
    retry: false,
  });
}

/**
 * POST /api/cart/purchase with one Idempotency-Key per attempt: a repeated click never charges twice.
 * In the currency the buyer sees: the order keeps it as the currency it was paid in (issue 18 bug 7).
 */
export function usePurchaseCart() {
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: (idempotencyKey: string) =>
      api<PurchaseResult>('/api/cart/purchase', { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey }, currency: currency.code }),
    onSuccess: () => {
      for (const key of [cartKeys.all, ['balance'], ['orders'], ['owned']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
