import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiEnvelope } from '../../../lib/api-client';
import { type ApiAnswer, contract, envelopeOf, payloadOf } from '../../../lib/api-contract';

export const versionKeys = {
  product: (productId: number) => ['versions', 'product', productId] as const,
  review: ['versions', 'review'] as const,
};

/** GET /api/products/{id}/versions: newest first (every version for the creator, the published ones for anyone else). */
export function useProductVersions(productId: number, enabled = true) {
  return useQuery({
    queryKey: versionKeys.product(productId),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/products/{id}/versions', { signal, params: { path: { id: productId } } })),
    enabled,
  });
}

export type VersionAnswer = ApiAnswer<'/api/seller/products/{id}/versions', 'post'>;

/** POST /api/seller/products/{id}/versions (multipart: `file` and `notes`). */
export function useUploadVersion(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, notes }: { file: File; notes: string }) => {
      const form = new FormData();
      form.append('notes', notes);
      form.append('file', file);
      // Multipart: the document types no body for it, so it goes through apiEnvelope with the answer typed from the document.
      return apiEnvelope<VersionAnswer>(`/api/seller/products/${productId}/versions`, { method: 'POST', body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.product(productId) }),
  });
}

/** Back office: versions whose file changed type, waiting for review. */
export function useVersionsForReview() {
  return useQuery({ queryKey: versionKeys.review, queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/versions', { signal })) });
}

export function useReviewVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: number; decision: 'approve' | 'reject'; reason?: string }) =>
      envelopeOf(
        decision === 'reject'
          ? contract.POST('/api/admin/versions/{id}/reject', { params: { path: { id } }, body: { reason: reason ?? '' } })
          : contract.POST('/api/admin/versions/{id}/approve', { params: { path: { id } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.review }),
  });
}
