import type { DisputeStatus } from '../../db/schema';
import { defineLifecycle } from '../../lib/lifecycle';

/** What the provider tells about a dispute once it is open. */
export type DisputeEvent = 'won' | 'lost';

/**
 * What a move does (features/payments/disputes.ts carries it out, the ledger's moves in ledger/disputes.ts):
 * - hold: the balance (as far as it goes) and receivable:<user> (the rest, already spent; may go below
 *   zero) → disputes:hold, once (keyed dispute-opened:<id>);
 * - flag_user: users.disputed_at; notify_staff: every staff member gets a bell;
 * - give_back: disputes:hold → receivable:<user> (what it gave, as far as still owed) + balance (the rest), keyed dispute-won:<id>;
 * - let_go: disputes:hold → clearing:<provider>, keyed dispute-lost:<id>; a receivable part stays owed.
 */
export type DisputeEffect = 'hold' | 'flag_user' | 'notify_staff' | 'give_back' | 'let_go';

/**
 * A dispute's (chargeback's) whole life, one row per legal move, each with its effects. Only the
 * provider moves it, through its signed webhook (`charge.dispute.created`, `charge.dispute.closed`);
 * every move is keyed by the provider's dispute id, so a replayed event changes nothing. A move not
 * listed here (a second close, a close of an unknown dispute) is answered and ignored.
 */
export const disputeLifecycle = defineLifecycle<DisputeStatus, 'provider', DisputeEffect>({
  name: 'dispute',
  states: ['open', 'won', 'lost'],
  finals: ['won', 'lost'],
  moves: [
    // The card holder asked their bank for the money back: it may not be spent while the bank decides.
    { from: null, to: 'open', on: 'opened', by: ['provider'], effects: ['hold', 'flag_user', 'notify_staff'] },
    // The bank sided with us (Stripe's `won`, or an inquiry closed as `warning_closed`).
    { from: 'open', to: 'won', on: 'won', by: ['provider'], effects: ['give_back'] },
    // The bank took the money back from the provider: it leaves as it came.
    { from: 'open', to: 'lost', on: 'lost', by: ['provider'], effects: ['let_go'] },
  ],
});

/** Where a dispute goes on an event, or null when the table does not list the move. */
export function nextDisputeStatus(from: DisputeStatus | null, on: 'opened' | DisputeEvent): DisputeStatus | null {
  const move = disputeLifecycle.onEvent(from, on, 'provider');
  return 'refused' in move ? null : move.to;
}
