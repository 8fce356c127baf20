import type { SellerDetails, SellerDetailsInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const sellerDetailsKey = ['seller-details'] as const;

/** GET /api/user/seller-details: null until given. */
export const useSellerDetails = () =>
  useQuery({ queryKey: sellerDetailsKey, queryFn: ({ signal }) => api<SellerDetails | null>('/api/user/seller-details', { signal }) });

/** PUT /api/user/seller-details. */
export function useSaveSellerDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerDetailsInput) => api<SellerDetails>('/api/user/seller-details', { method: 'PUT', body: input }),
    onSuccess: (saved) => queryClient.setQueryData(sellerDetailsKey, saved),
  });
}
