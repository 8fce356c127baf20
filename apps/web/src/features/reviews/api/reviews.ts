import type { Review, ReviewInput, ReviewSort, ReviewsPage } from '@atelier/shared/reviews';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiEnvelope } from '../../../lib/api-client';

export const reviewKeys = {
  all: (productId: number) => ['reviews', productId] as const,
  page: (productId: number, page: number, sort: ReviewSort) => ['reviews', productId, page, sort] as const,
};

/** GET /api/products/{id}/reviews: one page, with the counts per star and what the reader may do. */
export function useReviews(productId: number, page: number, sort: ReviewSort) {
  return useQuery({
    queryKey: reviewKeys.page(productId, page, sort),
    queryFn: ({ signal }) => apiEnvelope<ReviewsPage>(`/api/products/${productId}/reviews`, { signal, query: { page, sort } }),
    placeholderData: (previous) => previous,
  });
}

/** Every review write refreshes the list and the product's stars (its info answer). */
function useReviewMutation<V>(productId: number, call: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all(productId) });
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}

export function useSaveReview(productId: number) {
  return useReviewMutation(productId, async ({ id, input }: { id: number | null; input: ReviewInput }) => {
    return id === null
      ? api<Review>(`/api/products/${productId}/reviews`, { method: 'POST', body: input })
      : api<Review>(`/api/reviews/${id}`, { method: 'PUT', body: input });
  });
}

export function useDeleteReview(productId: number) {
  return useReviewMutation(productId, (id: number) => apiEnvelope(`/api/reviews/${id}`, { method: 'DELETE' }));
}

export function useReplyToReview(productId: number) {
  return useReviewMutation(productId, ({ id, text }: { id: number; text: string }) =>
    api<Review>(`/api/reviews/${id}/reply`, { method: 'POST', body: { text } }),
  );
}
