import type { DepositStatus } from '../../db/schema';

/** What can happen to a deposit. */
export type DepositEvent = 'succeeded' | 'failed' | 'expired';

/**
 * The deposit lifecycle, one row per state: which event moves it where. Anything not listed changes
 * nothing (a duplicate or late event is answered and ignored).
 */
export const depositTransitions: Record<DepositStatus, Partial<Record<DepositEvent, DepositStatus>>> = {
  processing: {
    // The provider took the money: credit the balance.
    succeeded: 'success',
    // Declined, authentication failed, or the provider's session ended unpaid.
    failed: 'failed',
    // Nothing heard for 30 minutes: the user sees a failure and may try again.
    expired: 'failed',
  },
  failed: {
    // The money arrived after all (a provider retried after we expired it): it is still credited.
    succeeded: 'success',
  },
  // Final: the balance was credited once.
  success: {},
  // Final: the provider reported an error we could not act on.
  error: {},
};

export function nextDepositStatus(from: DepositStatus, event: DepositEvent): DepositStatus | null {
  return depositTransitions[from][event] ?? null;
}
