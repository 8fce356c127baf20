import type { AddCartItemInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { type ApiPayload, contract, payloadOf, priced, quiet } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

/** Every cart key starts with 'cart', so one invalidation refreshes the page, the checkout and the header badge. */
export const cartKeys = {
  all: ['cart'] as const,
  cart: (currency: string | null) => ['cart', 'items', currency] as const,
  checkout: (currency: string | null, code: string | null = null) => ['cart', 'checkout', currency, code] as const,
};

export type Cart = ApiPayload<'/api/cart', 'get'>;

/** SPEC §4: a 401 on fetch clears the cart silently (an empty cart, not an error). */
export async function fetchCart(currency: string | null, signal?: AbortSignal): Promise<Cart> {
  try {
    return await payloadOf(contract.GET('/api/cart', { signal, headers: priced(currency), ...quiet }));
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
    mutationFn: (input: AddCartItemInput) => payloadOf(contract.POST('/api/cart/items', { body: input })),
    onSuccess: store,
  });
}

export function useRemoveFromCart() {
  const store = useStoreCart();
  return useMutation({
    mutationFn: (lineId: number) => payloadOf(contract.DELETE('/api/cart/items/{id}', { params: { path: { id: lineId } } })),
    onSuccess: store,
  });
}

/** POST /api/cart/checkout: what paying from the balance would do (nothing is charged), with a discount code once applied (issue 34). */
export function useCheckoutSummary(code: string | null = null) {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: cartKeys.checkout(currency.code, code),
    queryFn: ({ signal }) => checkoutSummaryWith(code, currency.code, signal),
    enabled: currency.ready,
    retry: false,
  });
}

/** The checkout summary with a code: a 422 on `discount_code` says why it cannot be used. */
export const checkoutSummaryWith = (code: string | null, currency: string | null, signal?: AbortSignal) =>
  payloadOf(
    contract.POST('/api/cart/checkout', { signal, headers: priced(currency), ...(code ? { body: { discount_code: code }, ...quiet } : { body: null }) }),
  );

/**
 * POST /api/cart/purchase with one Idempotency-Key per attempt: a repeated click never charges twice.
 * In the currency the buyer sees: the order keeps it as the currency it was paid in (issue 18 bug 7).
 */
export function usePurchaseCart() {
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: ({ idempotencyKey, discountCode }: { idempotencyKey: string; discountCode?: string | null }) =>
      payloadOf(
        contract.POST('/api/cart/purchase', {
          headers: { ...priced(currency.code), 'Idempotency-Key': idempotencyKey },
          body: discountCode ? { discount_code: discountCode } : null,
        }),
      ),
    onSuccess: () => {
      for (const key of [cartKeys.all, ['balance'], ['orders'], ['owned']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
