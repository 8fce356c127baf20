import type { LicenceTier } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

/** The product page's first call for a signed-in buyer: kept apart from the rest of the orders' calls, so the page downloads only this. */
export const orderKeys = {
  history: (currency: string | null) => ['orders', currency] as const,
  owned: (productId: number) => ['owned', productId] as const,
};

/** GET /api/purchase/owned: whether the signed-in user owns this product, with its downloads. */
export function useOwnership(productId: number, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.owned(productId),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/purchase/owned', { signal, params: { query: { product_id: productId } } })),
    enabled,
  });
}

/**
 * POST /api/purchase/upgrade (issue 34): the owner of a licence pays the difference for a wider one.
 * Kept beside the ownership call: the product page's owned box is its only caller.
 */
export function useUpgradeLicence(productId: number) {
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: (licenceTier: LicenceTier) =>
      payloadOf(contract.POST('/api/purchase/upgrade', { body: { product_id: productId, licence_tier: licenceTier }, headers: priced(currency.code) })),
    onSuccess: () => {
      for (const key of [['balance'], ['orders'], ['owned']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
