import type { DepositStatus } from '../../db/schema';
import { defineLifecycle } from '../../lib/lifecycle';

/** What can happen to a deposit. */
export type DepositEvent = 'succeeded' | 'failed' | 'expired';

/** Who moves a deposit: the user who starts it, the provider's verified webhook, or the expiry job. */
export type DepositActor = 'user' | 'provider' | 'system';

/**
 * What a move does besides changing the status (deposits.ts applyPaymentEvent carries them out):
 * - credit: clearing:<provider> → the user's balance, once (keyed deposit:<id>); a payment for
 *   something (a chat image) then pays for it from the credit; the receipt job; the bell.
 * - start_checkout: the provider's checkout is started after the commit, keyed by the deposit id.
 * - keep_error: the provider's error message is kept for the user.
 */
export type DepositEffect = 'credit' | 'start_checkout' | 'keep_error';

export const DEPOSIT_STATUSES: readonly DepositStatus[] = ['processing', 'success', 'failed', 'error'];

/**
 * The deposit lifecycle, one row per legal move. Anything not listed changes nothing (a duplicate or
 * late event is answered and ignored). A success event must also state the deposit's amount and
 * currency (issue 30), else it credits nothing and the deposit is flagged for staff.
 */
export const depositLifecycle = defineLifecycle<DepositStatus, DepositActor, DepositEffect>({
  name: 'deposit',
  states: DEPOSIT_STATUSES,
  finals: ['success', 'error'],
  moves: [
    // Add Funds or a card payment for something: written before the provider is asked.
    { from: null, to: 'processing', by: ['user'], effects: ['start_checkout'] },
    // The provider took the money: credit the balance.
    { from: 'processing', to: 'success', by: ['provider'], effects: ['credit'] },
    // Declined, authentication failed, or the provider's session ended unpaid (provider); or nothing
    // heard for 30 minutes (the expiry job): the user sees a failure and may try again.
    { from: 'processing', to: 'failed', by: ['provider', 'system'], effects: ['keep_error'] },
    // The money arrived after all (a provider retried after we expired it): it is still credited.
    { from: 'failed', to: 'success', by: ['provider'], effects: ['credit'] },
  ],
});

/** Which move an event asks for: its target and who makes it. */
const EVENT_MOVES: Record<DepositEvent, { to: DepositStatus; by: DepositActor }> = {
  succeeded: { to: 'success', by: 'provider' },
  failed: { to: 'failed', by: 'provider' },
  expired: { to: 'failed', by: 'system' },
};

export function nextDepositStatus(from: DepositStatus, event: DepositEvent): DepositStatus | null {
  const { to, by } = EVENT_MOVES[event];
  return depositLifecycle.can(from, to, by) ? to : null;
}
