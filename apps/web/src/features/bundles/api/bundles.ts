import type { BundleStatus, CreateBundleInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';

export const bundlesKey = ['bundles', 'seller'] as const;
export const bundleWorksKey = ['bundles', 'works'] as const;
export const staffBundlesKey = (status: BundleStatus) => ['bundles', 'staff', status] as const;

/** GET /api/seller/bundles: the creator's proposals with their state. */
export const useBundles = () =>
  useQuery({ queryKey: bundlesKey, queryFn: ({ signal }) => payloadOf(contract.GET('/api/seller/bundles', { signal })).then((a) => a.bundles) });

/** GET /api/seller/bundles/works: the creator's works that may go into a bundle. */
export const useBundleWorks = () =>
  useQuery({ queryKey: bundleWorksKey, queryFn: ({ signal }) => payloadOf(contract.GET('/api/seller/bundles/works', { signal })).then((a) => a.works) });

/** POST /api/seller/bundles. */
export function useProposeBundle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateBundleInput) => payloadOf(contract.POST('/api/seller/bundles', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bundlesKey }),
  });
}

/** POST /api/seller/bundles/{id}/withdraw. */
export function useWithdrawBundle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => payloadOf(contract.POST('/api/seller/bundles/{id}/withdraw', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bundlesKey }),
  });
}

/** GET /api/admin/bundles?status=: the review queue. */
export const useStaffBundles = (status: BundleStatus) =>
  useQuery({
    queryKey: staffBundlesKey(status),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/bundles', { signal, params: { query: { status } } })).then((a) => a.bundles),
  });

/** POST /api/admin/bundles/{id}/approve or /reject (with a reason). */
export function useReviewBundle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: number; decision: 'approve' | 'reject'; reason?: string }) =>
      payloadOf(
        decision === 'reject'
          ? contract.POST('/api/admin/bundles/{id}/reject', { params: { path: { id } }, body: { reason: reason ?? '' } })
          : contract.POST('/api/admin/bundles/{id}/approve', { params: { path: { id } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bundles', 'staff'] }),
  });
}
