import type { PayoutStatus } from '@atelier/shared';

/** Who ends a payout: the `payout.settle` job with the provider's answer, or staff in the back office. */
export type PayoutActor = 'system' | 'staff';

type Transition = { from: PayoutStatus; to: PayoutStatus; by: readonly PayoutActor[]; effects: string };

/**
 * A payout's whole life, one row per legal move, each with its effects. It starts `processing`, in the
 * transaction that locks what it pays for (an offer: approved → payout_processing) and, when the
 * provider sends it, enqueues `payout.settle` keyed by the payout's id. The provider is called only by
 * that job, after the commit, with the payout's id as its idempotency key.
 *
 * Who may end it: a payout with a provider token belongs to its job while the job waits or runs (staff
 * get 409, so a transfer in flight cannot also be marked by hand); one without a token (the manual
 * provider, the sandbox's SEPA transfers) or whose job gave up is staff's.
 * What the effects are depends on what the payout pays for (`kind`, see payouts.ts `SETTLEMENTS`).
 */
export const PAYOUT_TRANSITIONS: readonly Transition[] = [
  {
    from: 'processing',
    to: 'paid',
    by: ['system', 'staff'],
    // Staff give the bank transfer's reference (stored, shown, audited).
    effects:
      'offer: ledger expense:offer-acquisitions → clearing:payout-<provider> (once, keyed payout:<id>); offer → paid; e-mail and bell. ' +
      'withdrawal: ledger withdrawals:in-flight → clearing:payout-<provider> (once, keyed withdrawal-paid:<id>); bell',
  },
  {
    from: 'processing',
    to: 'failed',
    by: ['system', 'staff'],
    // The provider declined (or staff saw the transfer bounce, with a reason): nothing was paid, nothing is journaled.
    effects:
      'offer: offer → approved with the reason, so the creator can try again; e-mail and bell. ' +
      'withdrawal: ledger withdrawals:in-flight → earnings:available:<creator> (once, keyed withdrawal-returned:<id>); the reason kept; bell',
  },
];

export function canSettle(from: PayoutStatus, to: PayoutStatus, actor: PayoutActor): boolean {
  return PAYOUT_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(actor));
}
