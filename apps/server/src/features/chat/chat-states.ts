import { CHAT_DEAL_WAIT_DAYS, CHAT_STATUSES, type CHAT_SYSTEM_MESSAGES, type ChatStatus } from '@atelier/shared';
import { defineLifecycle } from '../../lib/lifecycle';

/**
 * The commission deal as one transition table for a chat's `status` (issues 11 and 17). The chat's
 * recipient (the person contacted) is the creator; the sender (who opened it) is the buyer. Each row
 * is one legal move, who may make it, and everything it does (its effects), so the whole deal reads
 * here; `chat-deal.ts` carries the effects out and nothing else. Anything not listed is a 409.
 *
 * Every deal has exits: either side cancels a running deal, and a deal left waiting on one side for
 * CHAT_DEAL_WAIT_DAYS expires (a job per wait, `chat.deal-expire`). Both return the chat to talking.
 */
export type ChatEvent = 'propose_price' | 'accept_price' | 'negotiate_price' | 'send_locked_image' | 'unlock_paid' | 'cancel_deal' | 'expire_deal';
export type ChatRole = 'creator' | 'buyer';
/** Who may make a move: one side, either side, or the system (a job). */
export type ChatMover = ChatRole | 'either' | 'system';

/** The notifications the deal's moves ring. */
export type DealNotice = 'price_proposed' | 'price_accepted' | 'price_negotiated' | 'image_ready' | 'image_unlocked' | 'deal_cancelled' | 'deal_expired';

export type ChatEffects = {
  /** What the move writes into the conversation. */
  message:
    | { kind: 'price_proposal' } // the proposal with its amount: 'Price offered: 30.00 €'
    | { kind: 'locked_image' } // the finished image, blurred for the buyer until paid
    | { kind: 'system'; text: keyof typeof CHAT_SYSTEM_MESSAGES }; // a fixed line in the middle of the conversation
  /** The bell: the other side hears of the move (both sides when the system makes it). */
  notify: DealNotice;
  /** Money the ledger moves, in the same transaction. */
  charge: 'none' | 'image_price';
  /** The deal's price on the chat: set by a proposal, kept while it runs, cleared when it ends. */
  price: 'set' | 'keep' | 'clear';
  /** Whom the deal now waits on: that wait expires after CHAT_DEAL_WAIT_DAYS (one job per wait). */
  waitsOn: ChatRole | null;
};

export type ChatTransition = { from: ChatStatus; event: ChatEvent; by: ChatMover; to: ChatStatus; effects: ChatEffects };

const RUNNING: ChatStatus[] = ['price_proposed', 'generating', 'waiting_payment'];

export const chatTransitions: readonly ChatTransition[] = [
  // The creator names a price ({type: "price_proposal", amount}), at most the largest card payment
  // (deposit_max); the header shows 'Price offered'. The buyer answers.
  {
    from: 'active',
    event: 'propose_price',
    by: 'creator',
    to: 'price_proposed',
    effects: { message: { kind: 'price_proposal' }, notify: 'price_proposed', charge: 'none', price: 'set', waitsOn: 'buyer' },
  },
  // The buyer accepts ({action: "accept_price"}): the price is agreed, the creator works ('Creating artwork...').
  {
    from: 'price_proposed',
    event: 'accept_price',
    by: 'buyer',
    to: 'generating',
    effects: { message: { kind: 'system', text: 'priceAccepted' }, notify: 'price_accepted', charge: 'none', price: 'keep', waitsOn: 'creator' },
  },
  // The buyer wants less ({action: "negotiate_price"}): back to talking, 'Asking for a better price' is written.
  {
    from: 'price_proposed',
    event: 'negotiate_price',
    by: 'buyer',
    to: 'active',
    effects: { message: { kind: 'system', text: 'negotiate' }, notify: 'price_negotiated', charge: 'none', price: 'clear', waitsOn: null },
  },
  // The creator sends the finished image locked, at exactly the agreed price (another price needs a
  // new proposal): 'Waiting for payment'; the buyer sees a blurred preview, the creator the original.
  {
    from: 'generating',
    event: 'send_locked_image',
    by: 'creator',
    to: 'waiting_payment',
    effects: { message: { kind: 'locked_image' }, notify: 'image_ready', charge: 'none', price: 'keep', waitsOn: 'buyer' },
  },
  // The buyer pays the image (POST /chat/{id}/unlock from the balance, or the card widget's webhook):
  // the buyer → the creator (less the commission) and → the platform, once; the original is theirs.
  {
    from: 'waiting_payment',
    event: 'unlock_paid',
    by: 'buyer',
    to: 'active',
    effects: { message: { kind: 'system', text: 'imageUnlocked' }, notify: 'image_unlocked', charge: 'image_price', price: 'clear', waitsOn: null },
  },
  // Either side leaves a running deal ({action: "cancel_deal"}): 'Deal cancelled', back to talking.
  // A locked image of the cancelled deal can no longer be paid (a new deal needs a new proposal).
  ...RUNNING.map(
    (from): ChatTransition => ({
      from,
      event: 'cancel_deal',
      by: 'either',
      to: 'active',
      effects: { message: { kind: 'system', text: 'dealCancelled' }, notify: 'deal_cancelled', charge: 'none', price: 'clear', waitsOn: null },
    }),
  ),
  // Nobody moved for CHAT_DEAL_WAIT_DAYS while the deal waited on one side: it closes by itself.
  ...RUNNING.map(
    (from): ChatTransition => ({
      from,
      event: 'expire_deal',
      by: 'system',
      to: 'active',
      effects: { message: { kind: 'system', text: 'dealExpired' }, notify: 'deal_expired', charge: 'none', price: 'clear', waitsOn: null },
    }),
  ),
];

export const DEAL_WAIT_MS = CHAT_DEAL_WAIT_DAYS * 24 * 60 * 60 * 1000;

export const chatStateMessages = {
  wrongRole: (event: ChatEvent) =>
    event === 'propose_price' || event === 'send_locked_image' ? 'Only the creator can do this in this chat.' : 'Only the buyer can do this in this chat.',
  wrongState: 'This cannot be done while the chat is in its current state.',
} as const;

/**
 * The same table on the one lifecycle helper (lib/lifecycle.ts): it checks the table when the module
 * loads (every state known, every running deal has an exit to 'active', where a chat rests between
 * deals) and answers a move by its event. 'either' is either side; the system is a job.
 */
export const chatDealLifecycle = defineLifecycle<ChatStatus, ChatRole | 'system', ChatEvent>({
  name: 'chat deal',
  states: CHAT_STATUSES,
  finals: [],
  rests: ['active'],
  moves: chatTransitions.map((t) => ({
    from: t.from,
    to: t.to,
    on: t.event,
    by: t.by === 'either' ? (['creator', 'buyer'] as const) : [t.by],
    effects: [t.event],
  })),
});

/** The move `event` by `mover` from `from`, or why not: 'role' (the other party's move) or 'state' (not now). */
export function chatTransition(from: ChatStatus, event: ChatEvent, mover: ChatRole | 'system'): ChatTransition | { refused: 'role' | 'state' } {
  const move = chatDealLifecycle.onEvent(from, event, mover);
  if ('refused' in move) return move;
  return chatTransitions.find((t) => t.from === from && t.event === event)!;
}

/** The status after `event` by `mover`, or why not. */
export function nextChatStatus(from: ChatStatus, event: ChatEvent, mover: ChatRole | 'system'): { to: ChatStatus } | { refused: 'role' | 'state' } {
  const move = chatTransition(from, event, mover);
  return 'refused' in move ? move : { to: move.to };
}

/** Whom a running deal in `status` waits on (the side whose move it is), or null while talking. */
export function waitingOn(status: ChatStatus): ChatRole | null {
  return chatTransitions.find((t) => t.to === status && t.effects.waitsOn)?.effects.waitsOn ?? null;
}
