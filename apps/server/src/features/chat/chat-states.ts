import type { ChatStatus } from '@atelier/shared';

/**
 * The commission deal as one transition table for a chat's `status` (issue 11). The chat's
 * recipient (the person contacted) is the creator; the sender (who opened it) is the buyer. Each
 * step is also written into the conversation as a message. Anything not listed is a 409.
 */
export type ChatEvent = 'propose_price' | 'accept_price' | 'negotiate_price' | 'send_locked_image' | 'unlock_paid';
export type ChatRole = 'creator' | 'buyer';

type Transition = { from: ChatStatus; event: ChatEvent; by: ChatRole; to: ChatStatus };

export const chatTransitions: readonly Transition[] = [
  // The creator names a price ({type: "price_proposal", amount}); the header shows 'Price offered'.
  { from: 'active', event: 'propose_price', by: 'creator', to: 'price_proposed' },
  // The buyer accepts ({action: "accept_price"}): the creator works, the header shows 'Creating artwork...'.
  { from: 'price_proposed', event: 'accept_price', by: 'buyer', to: 'generating' },
  // The buyer wants less ({action: "negotiate_price"}): back to talking, 'Asking for a better price' is written.
  { from: 'price_proposed', event: 'negotiate_price', by: 'buyer', to: 'active' },
  // The creator sends the finished image locked with a price: 'Waiting for payment'; the buyer sees a blurred preview.
  { from: 'generating', event: 'send_locked_image', by: 'creator', to: 'waiting_payment' },
  // The buyer paid the locked image (POST /chat/{id}/unlock): the original is theirs and the chat is open again.
  { from: 'waiting_payment', event: 'unlock_paid', by: 'buyer', to: 'active' },
];

export const chatStateMessages = {
  wrongRole: (event: ChatEvent) =>
    event === 'propose_price' || event === 'send_locked_image' ? 'Only the creator can do this in this chat.' : 'Only the buyer can do this in this chat.',
  wrongState: 'This cannot be done while the chat is in its current state.',
} as const;

/** The status after `event` by `role`, or why not: 'role' (the other party's move) or 'state' (not now). */
export function nextChatStatus(from: ChatStatus, event: ChatEvent, role: ChatRole): { to: ChatStatus } | { refused: 'role' | 'state' } {
  const forEvent = chatTransitions.filter((t) => t.event === event);
  const match = forEvent.find((t) => t.from === from);
  if (!match) return { refused: 'state' };
  if (match.by !== role) return { refused: 'role' };
  return { to: match.to };
}
