import type { ReviewSort } from '@atelier/shared/reviews';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, contract, envelopeOf, payloadOf } from '../../../lib/api-contract';

export const reviewKeys = {
  all: (productId: number) => ['reviews', productId] as const,
  page: (productId: number, page: number, sort: ReviewSort) => ['reviews', productId, page, sort] as const,
};

/** GET /api/products/{id}/reviews: one page, with the counts per star and what the reader may do. */
export function useReviews(productId: number, page: number, sort: ReviewSort) {
  return useQuery({
    queryKey: reviewKeys.page(productId, page, sort),
    queryFn: ({ signal }) => envelopeOf(contract.GET('/api/products/{id}/reviews', { signal, params: { path: { id: productId }, query: { page, sort } } })),
    placeholderData: (previous) => previous,
  });
}

/** Every review write refreshes the list and the product's stars (its info answer). */
/** A review as the form sends it, its stars parsed to a number. */
export type ReviewBody = ApiBody<'/api/reviews/{id}', 'put'>;

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
  return useReviewMutation(productId, async ({ id, input }: { id: number | null; input: ReviewBody }) => {
    return id === null
      ? payloadOf(contract.POST('/api/products/{id}/reviews', { params: { path: { id: productId } }, body: input }))
      : payloadOf(contract.PUT('/api/reviews/{id}', { params: { path: { id } }, body: input }));
  });
}

export function useDeleteReview(productId: number) {
  return useReviewMutation(productId, (id: number) => envelopeOf(contract.DELETE('/api/reviews/{id}', { params: { path: { id } } })));
}

export function useReplyToReview(productId: number) {
  return useReviewMutation(productId, ({ id, text }: { id: number; text: string }) =>
    payloadOf(contract.POST('/api/reviews/{id}/reply', { params: { path: { id } }, body: { text } })),
  );
}
