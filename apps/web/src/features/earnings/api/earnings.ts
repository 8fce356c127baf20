import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, contract, envelopeOf, payloadOf, priced } from '../../../lib/api-contract';
import { useSelectedCurrency } from '../../currency';
import type { PayoutBody } from '../../offers';

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
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/earnings', { signal, headers: priced(currency.code) })),
    enabled: currency.ready,
  });
}

/** GET /api/earnings/withdrawals: newest first; polled while one is processing. */
export function useWithdrawals() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: earningsKeys.withdrawals(currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/earnings/withdrawals', { signal, headers: priced(currency.code) })),
    enabled: currency.ready,
    refetchInterval: (query) => (query.state.data?.some((w) => w.status === 'processing') ? WITHDRAWAL_POLL_MS : false),
  });
}

/** The body of POST /api/earnings/withdraw as the form builds it (the server parses it with `withdrawInput`). */
export type WithdrawBody = ApiBody<'/api/earnings/withdraw', 'post'>;

/** A payout form's body as a withdrawal of `amount` (EUR): the same details, the method named as the server names it. */
export function withdrawalOf(body: PayoutBody, amount: string): WithdrawBody {
  if (body.paymentType === 'card') {
    const { paymentType: _card, id: _offer, ...details } = body;
    return { ...details, method: 'card', amount };
  }
  const { paymentType: _sepa, id: _offer, ...details } = body;
  return { ...details, method: 'sepa', amount };
}

/** POST /api/earnings/withdraw with one Idempotency-Key per attempt (a step-up retry sends the same key). */
export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: WithdrawBody; idempotencyKey: string }) =>
      envelopeOf(contract.POST('/api/earnings/withdraw', { body, headers: { 'Idempotency-Key': idempotencyKey } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['balance'] }),
  });
}
