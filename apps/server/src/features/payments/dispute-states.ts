import type { DisputeStatus } from '../../db/schema';

/** What the provider tells about a dispute once it is open. */
export type DisputeEvent = 'won' | 'lost';

type Transition = { from: DisputeStatus | null; to: DisputeStatus; on: 'opened' | DisputeEvent; effects: string };

/**
 * A dispute's (chargeback's) whole life, one row per legal move, each with its effects. Only the
 * provider moves it, through its signed webhook (`charge.dispute.created`, `charge.dispute.closed`);
 * every move is keyed by the provider's dispute id, so a replayed event changes nothing. A move not
 * listed here (a second close, a close of an unknown dispute) is answered and ignored.
 */
export const DISPUTE_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    to: 'open',
    on: 'opened',
    // The card holder asked their bank for the money back: it may not be spent while the bank decides.
    effects:
      'ledger balance (as far as it goes) + receivable:<user> (the rest, already spent; may go below zero) → disputes:hold, ' +
      'once (keyed dispute-opened:<id>); the user is flagged (users.disputed_at); every staff member gets a bell',
  },
  {
    from: 'open',
    to: 'won',
    on: 'won',
    // The bank sided with us (Stripe's `won`, or an inquiry closed as `warning_closed`).
    effects: 'ledger disputes:hold → receivable:<user> (what it gave, as far as still owed) + balance (the rest), keyed dispute-won:<id>',
  },
  {
    from: 'open',
    to: 'lost',
    on: 'lost',
    // The bank took the money back from the provider: it leaves as it came.
    effects: 'ledger disputes:hold → clearing:<provider> (keyed dispute-lost:<id>); a receivable part stays owed',
  },
];

/** Where a dispute goes on an event, or null when the table does not list the move. */
export function nextDisputeStatus(from: DisputeStatus | null, on: 'opened' | DisputeEvent): DisputeStatus | null {
  return DISPUTE_TRANSITIONS.find((t) => t.from === from && t.on === on)?.to ?? null;
}
