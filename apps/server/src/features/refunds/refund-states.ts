import type { RefundStatus } from '@atelier/shared';
import { defineLifecycle } from '../../lib/lifecycle';

/** Who moves a refund request: the buyer who asked, the creator who sold, or staff in the back office. */
export type RefundActor = 'buyer' | 'creator' | 'staff';

/** What a move does besides changing the status; every one is written in the move's transaction. */
export type RefundEffect =
  /** The sale of the item is reversed in one ledger transaction (ledger/refund.ts postRefund). */
  | 'ledger_refund'
  /** The item is marked refunded: its download and the unlocked original answer 410 to the buyer. */
  | 'revoke_access'
  /** The other party is told: a bell notification, a live event and an e-mail. */
  | 'notify_other_party'
  /** Both parties are told (bell, live event, e-mail). */
  | 'notify_both'
  /** A row in the staff audit log. */
  | 'audit'
  /** The item's earnings are held while the request is open (ledger/refund-hold.ts): not released, not withdrawable. */
  | 'earnings_hold'
  /** The request ended without a refund: the hold is released (ledger/refund-hold.ts). */
  | 'earnings_unhold';

/**
 * A refund request's whole life, one row per legal move, on the one lifecycle helper (lib/lifecycle.ts).
 * Anything not listed here is refused with 409 and changes nothing. Its exits: refunded or rejected,
 * by the creator or staff.
 */
export const refundLifecycle = defineLifecycle<RefundStatus, RefundActor, RefundEffect>({
  name: 'refund request',
  states: ['open', 'responded', 'refunded', 'rejected'],
  finals: ['refunded', 'rejected'],
  moves: [
    // The buyer asks within 14 days of the purchase (POST /api/orders/{id}/refund-request): the creator is told.
    { from: null, to: 'open', by: ['buyer'], effects: ['earnings_hold', 'notify_other_party'] },
    // The creator answers once (POST /api/refund-requests/{id}/respond); staff then decide.
    { from: 'open', to: 'responded', by: ['creator'], effects: ['notify_other_party'] },
    // The creator accepts (POST /api/refund-requests/{id}/accept): refunded at once, the buyer is told.
    { from: 'open', to: 'refunded', by: ['creator'], effects: ['ledger_refund', 'revoke_access', 'notify_both'] },
    { from: 'responded', to: 'refunded', by: ['creator'], effects: ['ledger_refund', 'revoke_access', 'notify_both'] },
    // Staff refund it (POST /api/admin/refund-requests/{id}/resolve decision=refund), with a note.
    { from: 'open', to: 'refunded', by: ['staff'], effects: ['ledger_refund', 'revoke_access', 'notify_both', 'audit'] },
    { from: 'responded', to: 'refunded', by: ['staff'], effects: ['ledger_refund', 'revoke_access', 'notify_both', 'audit'] },
    // Staff reject it (decision=reject), with a note: no money moves, the buyer keeps the file.
    { from: 'open', to: 'rejected', by: ['staff'], effects: ['earnings_unhold', 'notify_both', 'audit'] },
    { from: 'responded', to: 'rejected', by: ['staff'], effects: ['earnings_unhold', 'notify_both', 'audit'] },
  ],
});

/** The move from `from` to `to` by `actor`, or undefined when the table has none. */
export const findRefundTransition = (from: RefundStatus | null, to: RefundStatus, actor: RefundActor) => refundLifecycle.find(from, to, actor);

/** Whether a request may still be decided (refunded or rejected). */
export const isRefundActive = (status: RefundStatus) => status === 'open' || status === 'responded';

const STATUS_WORDS: Record<RefundStatus, string> = {
  open: 'waiting for an answer',
  responded: 'answered by the creator and waiting for our decision',
  refunded: 'already refunded',
  rejected: 'already rejected',
};
const WANTED: Record<RefundStatus, string> = { open: 'be opened', responded: 'be answered', refunded: 'be refunded', rejected: 'be rejected' };

/** The 409 message for a move the table does not allow, saying where the request stands. */
export function illegalRefundMoveMessage(from: RefundStatus, to: RefundStatus): string {
  return `This refund request is ${STATUS_WORDS[from]} and cannot ${WANTED[to]} now.`;
}
