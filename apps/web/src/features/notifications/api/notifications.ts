import { CHAT_POLL_MS } from '@atelier/shared/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, envelopeOf, payloadOf } from '../../../lib/api-contract';
import { useLiveConnected } from './live-events';

export const notificationKeys = {
  list: ['notifications', 'list'] as const,
  counts: ['notifications', 'counts'] as const,
};

/** The bell's first page of notifications (GET /api/notifications), live or polled. */
export function useNotifications(enabled: boolean) {
  const live = useLiveConnected();
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => envelopeOf(contract.GET('/api/notifications', { signal })),
    enabled,
    refetchInterval: live ? false : CHAT_POLL_MS * 6,
  });
}

/** Unread notifications and chat messages (GET /api/notifications/unread-count). */
export function useUnreadCounts(enabled: boolean) {
  const live = useLiveConnected();
  return useQuery({
    queryKey: notificationKeys.counts,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/notifications/unread-count', { signal })),
    enabled,
    refetchInterval: live ? false : CHAT_POLL_MS * 6,
  });
}

/** POST /api/notifications/read: these ids, or all. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => payloadOf(contract.POST('/api/notifications/read', { body: ids ? { ids } : {} })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
