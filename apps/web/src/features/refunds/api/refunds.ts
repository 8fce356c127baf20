import type { RefundReason } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';

export const refundKeys = { all: ['refund-requests'] as const, mine: (currency: string | null) => ['refund-requests', currency] as const };

/** GET /api/refund-requests: the requests where I am the buyer or the creator, newest first. */
export function useRefundRequests() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: refundKeys.mine(currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/refund-requests', { signal, headers: priced(currency.code) })),
    enabled: currency.ready,
  });
}

function useRefundAction<I>(call: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      for (const key of [refundKeys.all, ['orders'], ['balance'], ['notifications']]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

export type NewRefundRequest = { orderId: number; productId?: number; unlockMessageId?: number; reason: RefundReason; message: string };

/** POST /api/orders/{id}/refund-request (for a chat unlock, `orderId` is the chat). */
export const useCreateRefundRequest = () =>
  useRefundAction(({ orderId, productId, unlockMessageId, reason, message }: NewRefundRequest) =>
    payloadOf(
      contract.POST('/api/orders/{id}/refund-request', {
        params: { path: { id: orderId } },
        body: { reason, message, ...(productId ? { product_id: productId } : {}), ...(unlockMessageId ? { unlock_message_id: unlockMessageId } : {}) },
      }),
    ),
  );

/** The creator's one answer. */
export const useRespondToRefund = () =>
  useRefundAction(({ id, message }: { id: number; message: string }) =>
    payloadOf(contract.POST('/api/refund-requests/{id}/respond', { params: { path: { id } }, body: { message } })),
  );

/** The creator accepts: refunded at once. */
export const useAcceptRefund = () =>
  useRefundAction((id: number) => payloadOf(contract.POST('/api/refund-requests/{id}/accept', { params: { path: { id } } })));
