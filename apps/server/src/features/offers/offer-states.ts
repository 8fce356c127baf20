import { type DealType, OFFER_STATUSES, type OfferStatus } from '@atelier/shared';
import { defineLifecycle } from '../../lib/lifecycle';

/** Who moves an offer: the creator who owns it, staff in the back office, or the payout job. */
export type OfferActor = 'creator' | 'staff' | 'system';

/**
 * What a move does besides changing the status, by name (offers.queries.ts and the routes carry them out):
 * notify_creator (e-mail and bell), publish_product / hide_product (the listing's product in or out of
 * the shop), platform_product (a platform-owned draft product of a bought work), payout (a payout row
 * and its job, payouts.ts), keep_reason (the reason shown to the creator), audit (the staff or listing
 * audit entry).
 */
export type OfferEffect = 'notify_creator' | 'publish_product' | 'hide_product' | 'platform_product' | 'payout' | 'keep_reason' | 'audit';

/** `deal`: the row applies only to offers of this deal type (absent: to both). */
type Transition = { from: OfferStatus | null; to: OfferStatus; by: readonly OfferActor[]; deal?: DealType; effects: readonly OfferEffect[]; note?: string };

/**
 * The offer's whole life, one row per legal move (sharetribe's transaction process is the model).
 * Anything not listed here is refused with 409 and changes nothing.
 */
export const OFFER_TRANSITIONS: readonly Transition[] = [
  // The creator submits a work for review (a buyout or a listing).
  { from: null, to: 'pending', by: ['creator'], effects: [] },
  // Staff review a submitted offer and offer to buy it at service_price (it may equal the creator's price);
  // for a listing, they suggest another list price, which the creator accepts or declines the same way.
  { from: 'pending', to: 'offer', by: ['staff'], effects: ['notify_creator', 'audit'] },
  // A listing approved as it is (POST /api/admin/offers/{id}/approve).
  {
    from: 'pending',
    to: 'approved',
    by: ['staff'],
    effects: ['publish_product', 'notify_creator', 'audit'],
    deal: 'listing',
    note: "the creator's own product is published at their price (platform_owned false), no payout; audit, e-mail and bell",
  },
  // Staff decline the work; the reason is sent to the creator.
  { from: 'pending', to: 'declined_by_service', by: ['staff'], effects: ['keep_reason', 'notify_creator', 'audit'] },
  // Spam or a policy violation: declined for good.
  { from: 'pending', to: 'declined', by: ['staff'], effects: ['keep_reason', 'notify_creator', 'audit'] },
  // The creator accepts the counter-offer (POST /offer/approve): the work becomes a platform-owned product.
  {
    from: 'offer',
    to: 'approved',
    by: ['creator'],
    effects: ['platform_product'],
    deal: 'buyout',
    note: 'a platform-owned draft product; the creator may ask for the payout',
  },
  // The creator accepts the suggested list price of a listing: published as their own product, no payout.
  {
    from: 'offer',
    to: 'approved',
    by: ['creator'],
    effects: ['publish_product'],
    deal: 'listing',
    note: "the creator's own product is published at the suggested price (platform_owned false)",
  },
  // The creator declines the counter-offer ('Deal is declined').
  { from: 'offer', to: 'declined_by_user', by: ['creator'], effects: [] },
  // The creator asks to be paid (card or SEPA): a payout record is made and handed to the provider.
  { from: 'approved', to: 'payout_processing', by: ['creator'], effects: ['payout'], deal: 'buyout' },
  // The provider confirmed the payout (or staff marked the bank transfer done): 'Deal is completed'.
  { from: 'payout_processing', to: 'paid', by: ['system', 'staff'], effects: ['notify_creator'] },
  // The payout failed: back to approved with the reason kept, so the creator can try again.
  { from: 'payout_processing', to: 'approved', by: ['system', 'staff'], effects: ['keep_reason', 'notify_creator'] },

  // A listing after approval, managed from My projects (issue 19). Every move below is audited.
  // A price change within 50% of the approved price is no move: the product's price changes in place
  // (audit 'listing.price'), whether the listing is in the shop or not.
  // The creator takes the listing out of the shop (POST /offer/{id}/unlist).
  {
    from: 'approved',
    to: 'unlisted',
    by: ['creator'],
    effects: ['hide_product', 'audit'],
    deal: 'listing',
    note: "the product is hidden (no longer sold or shown); audit 'listing.unlist'",
  },
  // The creator puts it back (POST /offer/{id}/relist), at the price it had.
  {
    from: 'unlisted',
    to: 'approved',
    by: ['creator'],
    effects: ['publish_product', 'audit'],
    deal: 'listing',
    note: "the product is published again; audit 'listing.relist'",
  },
  // A new price above 50% away from the approved one (up or down) goes back to review, listed or not:
  // staff approve it (the same product, published at the new price), suggest another price, or decline.
  {
    from: 'approved',
    to: 'pending',
    by: ['creator'],
    effects: ['hide_product', 'audit'],
    deal: 'listing',
    note: "user_price becomes the new price, the product is hidden until staff approve; audit 'listing.price_review'",
  },
  {
    from: 'unlisted',
    to: 'pending',
    by: ['creator'],
    effects: ['hide_product', 'audit'],
    deal: 'listing',
    note: "as from approved; audit 'listing.price_review'",
  },
];

/** A listing's new price needs staff again when it is more than 50% above or below the approved price. */
export function priceChangeNeedsReview(approvedMinor: number, newMinor: number): boolean {
  return Math.abs(newMinor - approvedMinor) * 2 > approvedMinor;
}

/** One lifecycle per deal type (lib/lifecycle.ts): the rows for both, and the deal's own. */
function offerLifecycle(deal: DealType) {
  return defineLifecycle<OfferStatus, OfferActor, OfferEffect>({
    name: `offer (${deal})`,
    // A bought work is never unlisted (it is the platform's product).
    states: deal === 'buyout' ? OFFER_STATUSES.filter((s) => s !== 'unlisted') : OFFER_STATUSES,
    finals: ['paid', 'declined', 'declined_by_service', 'declined_by_user'],
    moves: OFFER_TRANSITIONS.filter((t) => !t.deal || t.deal === deal),
  });
}
export const offerLifecycles: Record<DealType, ReturnType<typeof offerLifecycle>> = { buyout: offerLifecycle('buyout'), listing: offerLifecycle('listing') };

export function findTransition(from: OfferStatus, to: OfferStatus, deal: DealType = 'buyout') {
  return offerLifecycles[deal].moves.find((t) => t.from === from && t.to === to);
}

export function canTransition(from: OfferStatus, to: OfferStatus, actor: OfferActor, deal: DealType = 'buyout'): boolean {
  return offerLifecycles[deal].can(from, to, actor);
}

const STATUS_WORDS: Record<OfferStatus, string> = {
  pending: 'waiting for review',
  offer: 'waiting for your answer to our offer',
  approved: 'accepted',
  declined: 'declined',
  declined_by_service: 'declined by us',
  declined_by_user: 'declined by you',
  payout_processing: 'being paid out',
  paid: 'paid',
  unlisted: 'taken out of the shop',
};

/** The 409 message for a move the table does not allow, saying where the offer stands. */
export function illegalMoveMessage(from: OfferStatus, to: OfferStatus): string {
  const wanted: Partial<Record<OfferStatus, string>> = {
    offer: 'receive an offer',
    approved: 'be accepted',
    declined_by_user: 'be declined',
    declined_by_service: 'be declined',
    declined: 'be declined',
    payout_processing: 'be paid out',
    paid: 'be marked paid',
    unlisted: 'be unlisted',
    pending: 'go back to review',
  };
  return `This offer is ${STATUS_WORDS[from]} and cannot ${wanted[to] ?? `move to ${to}`} now.`;
}
