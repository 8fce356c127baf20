import type { AdminProductVersion, ProductVersion, ProductVersions } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiEnvelope } from '../../../lib/api-client';

export const versionKeys = {
  product: (productId: number) => ['versions', 'product', productId] as const,
  review: ['versions', 'review'] as const,
};

/** GET /api/products/{id}/versions: newest first (every version for the creator, the published ones for anyone else). */
export function useProductVersions(productId: number, enabled = true) {
  return useQuery({
    queryKey: versionKeys.product(productId),
    queryFn: ({ signal }) => api<ProductVersions>(`/api/products/${productId}/versions`, { signal }),
    enabled,
  });
}

export type VersionAnswer = { status: 'OK'; payload: ProductVersion; message?: string };

/** POST /api/seller/products/{id}/versions (multipart: `file` and `notes`). */
export function useUploadVersion(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, notes }: { file: File; notes: string }) => {
      const form = new FormData();
      form.append('notes', notes);
      form.append('file', file);
      return apiEnvelope<VersionAnswer>(`/api/seller/products/${productId}/versions`, { method: 'POST', body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.product(productId) }),
  });
}

/** Back office: versions whose file changed type, waiting for review. */
export function useVersionsForReview() {
  return useQuery({ queryKey: versionKeys.review, queryFn: ({ signal }) => api<AdminProductVersion[]>('/api/admin/versions', { signal }) });
}

export function useReviewVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: number; decision: 'approve' | 'reject'; reason?: string }) =>
      apiEnvelope<VersionAnswer>(`/api/admin/versions/${id}/${decision}`, { method: 'POST', ...(decision === 'reject' ? { body: { reason } } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.review }),
  });
}
