import type { DepositAmountInput, DepositCheckoutInput } from '@atelier/shared';
import { DEPOSIT_POLL_MS } from '@atelier/shared/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, envelopeOf, payloadOf } from '../../../lib/api-contract';

export const depositKeys = {
  history: ['deposits', 'history'] as const,
  status: (orderId: number) => ['deposits', 'status', orderId] as const,
};

/** POST /api/deposit/validate-amount: resolves when the amount is allowed, else throws with errors.amount. */
export const validateDepositAmount = (input: DepositAmountInput, signal?: AbortSignal) =>
  envelopeOf(contract.POST('/api/deposit/validate-amount', { body: input, signal }));

/** POST /api/deposit/validate: the payment methods for this amount. */
export const fetchPaymentMethods = (input: DepositAmountInput, signal?: AbortSignal) =>
  payloadOf(contract.POST('/api/deposit/validate', { body: input, signal }));

export function useDepositCheckout() {
  return useMutation({
    // One Idempotency-Key per attempt: a repeated click or a retried request starts one deposit.
    mutationFn: ({ input, idempotencyKey }: { input: DepositCheckoutInput; idempotencyKey: string }) =>
      payloadOf(contract.POST('/api/deposit/checkout', { body: input, headers: { 'Idempotency-Key': idempotencyKey } })),
  });
}

/** GET /api/deposit/status, asked at once and then every 5 s (SPEC §4, §9) until it leaves processing. */
export function useDepositStatus(orderId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: depositKeys.status(orderId ?? 0),
    queryFn: async ({ signal }) => {
      const answer = await payloadOf(contract.GET('/api/deposit/status', { signal, params: { query: { order_id: orderId ?? 0 } } }));
      if (answer.status === 'success') {
        void queryClient.invalidateQueries({ queryKey: ['balance'] });
        void queryClient.invalidateQueries({ queryKey: depositKeys.history });
      }
      return answer;
    },
    enabled: orderId !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'processing' ? false : DEPOSIT_POLL_MS),
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });
}

export function useDepositHistory(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: depositKeys.history,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/deposit/history', { signal })),
    enabled: opts.enabled ?? true,
  });
}

/** The words for a deposit's status. */
export const depositStatusKey = {
  processing: 'deposit.status_processing',
  success: 'deposit.status_success',
  failed: 'deposit.status_failed_label',
  error: 'deposit.status_error',
} as const;
