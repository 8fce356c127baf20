import type { SellerDetailsInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';

export const sellerDetailsKey = ['seller-details'] as const;

/** GET /api/user/seller-details: null until given. */
export const useSellerDetails = () =>
  useQuery({ queryKey: sellerDetailsKey, queryFn: ({ signal }) => payloadOf(contract.GET('/api/user/seller-details', { signal })) });

/** PUT /api/user/seller-details. */
export function useSaveSellerDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerDetailsInput) => payloadOf(contract.PUT('/api/user/seller-details', { body: input })),
    onSuccess: (saved) => queryClient.setQueryData(sellerDetailsKey, saved),
  });
}
