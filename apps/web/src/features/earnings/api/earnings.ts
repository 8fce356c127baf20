import type { EarningsSummary, Withdrawal } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiEnvelope } from '../../../lib/api-client';
import { useSelectedCurrency } from '../../currency';

/** Under ['balance'], so whatever moves money (a sale, a purchase, the currency) refreshes these too. */
export const earningsKeys = {
  all: ['balance', 'earnings'] as const,
  summary: (currency: string | null) => ['balance', 'earnings', 'summary', currency] as const,
  withdrawals: (currency: string | null) => ['balance', 'earnings', 'withdrawals', currency] as const,
};

/** How often the history is asked again while a withdrawal is on its way, so `paid` shows without a reload. */
export const WITHDRAWAL_POLL_MS = 4000;

/** GET /api/earnings: pending, available, withdrawn and lifetime earnings in the display currency. */
export function useEarnings() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: earningsKeys.summary(currency.code),
    queryFn: ({ signal }) => api<EarningsSummary>('/api/earnings', { signal, query: { currency: currency.code } }),
    enabled: currency.ready,
  });
}

/** GET /api/earnings/withdrawals: newest first; polled while one is processing. */
export function useWithdrawals() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: earningsKeys.withdrawals(currency.code),
    queryFn: ({ signal }) => api<Withdrawal[]>('/api/earnings/withdrawals', { signal, query: { currency: currency.code } }),
    enabled: currency.ready,
    refetchInterval: (query) => (query.state.data?.some((w) => w.status === 'processing') ? WITHDRAWAL_POLL_MS : false),
  });
}

/** The body of POST /api/earnings/withdraw as the form builds it (the server parses it with `withdrawInput`). */
export type WithdrawBody = Record<string, unknown> & { method: 'card' | 'sepa'; amount: string };

/** POST /api/earnings/withdraw with one Idempotency-Key per attempt (a step-up retry sends the same key). */
export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: WithdrawBody; idempotencyKey: string }) =>
      apiEnvelope<{ status: 'OK'; payload: { withdrawal: Withdrawal }; message?: string }>('/api/earnings/withdraw', {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['balance'] }),
  });
}
