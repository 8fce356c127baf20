import type { PayoutStatus } from '@atelier/shared';

/** Who ends a payout: the `payout.settle` and `payout.reconcile` jobs with the provider's answer, or staff in the back office. */
export type PayoutActor = 'system' | 'staff';

/** What the provider said when asked by payout id (null: never asked). */
export type ProviderState = 'unknown' | 'paid' | 'not_paid' | null;

/** What a guard sees of the payout. */
export type PayoutFacts = { providerState: ProviderState };

type Transition = {
  from: PayoutStatus;
  to: PayoutStatus;
  by: readonly PayoutActor[];
  effects: string;
  /** Why this move is refused now (a 409 with this sentence), or null when it may happen. */
  guard?: (facts: PayoutFacts) => string | null;
};

export const PAYOUT_MESSAGES = {
  providerNotAsked:
    'The provider may have paid this payout: it can be marked failed only once the provider has said it did not pay. Ask the provider again, or wait for its answer.',
} as const;

/** A payout whose money may still leave, or may have left: it blocks a second payout and deleting the account. */
export const PAYOUT_IN_FLIGHT: readonly PayoutStatus[] = ['processing', 'needs_review'];

/**
 * A payout's whole life, one row per legal move, each with its effects. It starts `processing`, in the
 * transaction that locks what it pays for (an offer: approved → payout_processing) and, when the
 * provider sends it, enqueues `payout.settle` keyed by the payout's id. The provider is called only by
 * that job, after the commit, with the payout's id as its idempotency key.
 *
 * Who may end it: a payout with a provider token belongs to its job while the job waits or runs (staff
 * get 409, so a transfer in flight cannot also be marked by hand); one without a token (the manual
 * provider, the sandbox's SEPA transfers) is staff's. When the job gives up, the provider may still
 * have paid it (issue 30 finding 5): the payout waits in `needs_review` and `payout.reconcile` asks the
 * provider by payout id; it is marked failed only after the provider said it did not pay.
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
  {
    from: 'processing',
    to: 'needs_review',
    by: ['system'],
    // The payout.settle job gave up (the provider unreachable, or still pending): it may have paid. No money moves.
    effects: 'provider_state → unknown; the payout.reconcile job is enqueued, keyed by the payout id; staff see it in the back office',
  },
  {
    from: 'needs_review',
    to: 'paid',
    by: ['system', 'staff'],
    // The provider says it paid (payout.reconcile), or staff saw the transfer with its reference.
    effects: 'the same as processing → paid',
  },
  {
    from: 'needs_review',
    to: 'failed',
    by: ['staff'],
    // Only once the provider has said it did not pay: otherwise the money could go out twice.
    effects: 'the same as processing → failed',
    guard: (facts) => (facts.providerState === 'not_paid' ? null : PAYOUT_MESSAGES.providerNotAsked),
  },
];

/** The move from `from` to `to` by `actor`, if the table has it. */
export function payoutMove(from: PayoutStatus, to: PayoutStatus, actor: PayoutActor): Transition | undefined {
  return PAYOUT_TRANSITIONS.find((t) => t.from === from && t.to === to && t.by.includes(actor));
}

export function canSettle(from: PayoutStatus, to: PayoutStatus, actor: PayoutActor): boolean {
  return payoutMove(from, to, actor) !== undefined;
}
