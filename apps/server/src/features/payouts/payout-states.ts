import { PAYOUT_STATUSES, type PayoutStatus } from '@atelier/shared';
import { defineLifecycle } from '../../lib/lifecycle';

/** Who ends a payout: the `payout.settle` and `payout.reconcile` jobs with the provider's answer, or staff in the back office. */
export type PayoutActor = 'system' | 'staff';

/** What the provider said when asked by payout id (null: never asked). */
export type ProviderState = 'unknown' | 'paid' | 'not_paid' | null;

/** What a guard sees of the payout. */
export type PayoutFacts = { providerState: ProviderState };

/**
 * What a move does besides changing the status, by name (payouts.ts SETTLEMENTS carries them out for
 * what the payout pays for):
 * - pay: an offer: the ledger journals expense:offer-acquisitions → clearing:payout-<provider> (once,
 *   keyed payout:<id>), the offer → paid, e-mail and bell; a withdrawal: withdrawals:in-flight →
 *   clearing:payout-<provider> (once, keyed withdrawal-paid:<id>), bell.
 * - return: nothing was paid: an offer → approved with the reason (the creator may try again), e-mail
 *   and bell; a withdrawal: withdrawals:in-flight → earnings:available:<creator> (once, keyed
 *   withdrawal-returned:<id>), the reason kept, bell.
 * - ask_provider: provider_state → unknown, and the payout.reconcile job, keyed by the payout id.
 * - audit: staff's move is written to the audit log.
 */
export type PayoutEffect = 'pay' | 'return' | 'ask_provider' | 'audit';

export const PAYOUT_MESSAGES = {
  providerNotAsked:
    'The provider may have paid this payout: it can be marked failed only once the provider has said it did not pay. Ask the provider again, or wait for its answer.',
} as const;

/** A payout whose money may still leave, or may have left: it blocks a second payout and deleting the account. */
export const PAYOUT_IN_FLIGHT: readonly PayoutStatus[] = ['processing', 'needs_review'];

/**
 * A payout's whole life, one row per legal move. It starts `processing`, in the transaction that locks
 * what it pays for (an offer: approved → payout_processing) and, when the provider sends it, enqueues
 * `payout.settle` keyed by the payout's id. The provider is called only by that job, after the commit,
 * with the payout's id as its idempotency key.
 *
 * Who may end it: a payout with a provider token belongs to its job while the job waits or runs (staff
 * get 409, so a transfer in flight cannot also be marked by hand); one without a token (the manual
 * provider, the sandbox's SEPA transfers) is staff's. When the job gives up, the provider may still
 * have paid it (issue 30 finding 5): the payout waits in `needs_review` and `payout.reconcile` asks the
 * provider by payout id; it is marked failed only after the provider said it did not pay.
 */
export const payoutLifecycle = defineLifecycle<PayoutStatus, PayoutActor, PayoutEffect, PayoutFacts>({
  name: 'payout',
  states: PAYOUT_STATUSES,
  finals: ['paid', 'failed'],
  moves: [
    // The request (an offer's payout, a withdrawal) writes it with what it pays for locked.
    { from: null, to: 'processing', by: ['system'], effects: [] },
    // The provider paid (or staff saw the bank transfer, with its reference: stored, shown, audited).
    { from: 'processing', to: 'paid', by: ['system', 'staff'], effects: ['pay', 'audit'] },
    // The provider declined (or staff saw the transfer bounce, with a reason): nothing was paid, nothing is journaled.
    { from: 'processing', to: 'failed', by: ['system', 'staff'], effects: ['return', 'audit'] },
    // The payout.settle job gave up (the provider unreachable, or still pending): it may have paid. No money moves.
    { from: 'processing', to: 'needs_review', by: ['system'], effects: ['ask_provider'] },
    // The provider says it paid (payout.reconcile), or staff saw the transfer with its reference.
    { from: 'needs_review', to: 'paid', by: ['system', 'staff'], effects: ['pay', 'audit'] },
    // Only once the provider has said it did not pay: otherwise the money could go out twice.
    {
      from: 'needs_review',
      to: 'failed',
      by: ['staff'],
      effects: ['return', 'audit'],
      guard: (facts) => (facts.providerState === 'not_paid' ? null : PAYOUT_MESSAGES.providerNotAsked),
    },
  ],
});

/** The table's moves (creation aside). */
export const PAYOUT_TRANSITIONS = payoutLifecycle.moves.filter((m) => m.from !== null);

/** The move from `from` to `to` by `actor`, if the table has it. */
export const payoutMove = (from: PayoutStatus, to: PayoutStatus, actor: PayoutActor) => payoutLifecycle.find(from, to, actor);

export const canSettle = (from: PayoutStatus, to: PayoutStatus, actor: PayoutActor): boolean => payoutLifecycle.can(from, to, actor);
