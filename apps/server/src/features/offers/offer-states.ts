import type { DealType, OfferStatus } from '@atelier/shared';

/** Who moves an offer: the creator who owns it, staff in the back office, or the payout job. */
export type OfferActor = 'creator' | 'staff' | 'system';

/** `deal`: the row applies only to offers of this deal type (absent: to both). */
type Transition = { from: OfferStatus; to: OfferStatus; by: readonly OfferActor[]; deal?: DealType; effects?: string };

/**
 * The offer's whole life, one row per legal move (sharetribe's transaction process is the model).
 * Anything not listed here is refused with 409 and changes nothing.
 */
export const OFFER_TRANSITIONS: readonly Transition[] = [
  // Staff review a submitted offer and offer to buy it at service_price (it may equal the creator's price);
  // for a listing, they suggest another list price, which the creator accepts or declines the same way.
  { from: 'pending', to: 'offer', by: ['staff'] },
  // A listing approved as it is (POST /api/admin/offers/{id}/approve).
  {
    from: 'pending',
    to: 'approved',
    by: ['staff'],
    deal: 'listing',
    effects: "the creator's own product is published at their price (platform_owned false), no payout; audit, e-mail and bell",
  },
  // Staff decline the work; the reason is sent to the creator.
  { from: 'pending', to: 'declined_by_service', by: ['staff'] },
  // Spam or a policy violation: declined for good.
  { from: 'pending', to: 'declined', by: ['staff'] },
  // The creator accepts the counter-offer (POST /offer/approve): the work becomes a platform-owned product.
  { from: 'offer', to: 'approved', by: ['creator'], deal: 'buyout', effects: 'a platform-owned draft product; the creator may ask for the payout' },
  // The creator accepts the suggested list price of a listing: published as their own product, no payout.
  {
    from: 'offer',
    to: 'approved',
    by: ['creator'],
    deal: 'listing',
    effects: "the creator's own product is published at the suggested price (platform_owned false)",
  },
  // The creator declines the counter-offer ('Deal is declined').
  { from: 'offer', to: 'declined_by_user', by: ['creator'] },
  // The creator asks to be paid (card or SEPA): a payout record is made and handed to the provider.
  { from: 'approved', to: 'payout_processing', by: ['creator'], deal: 'buyout' },
  // The provider confirmed the payout (or staff marked the bank transfer done): 'Deal is completed'.
  { from: 'payout_processing', to: 'paid', by: ['system', 'staff'] },
  // The payout failed: back to approved with the reason kept, so the creator can try again.
  { from: 'payout_processing', to: 'approved', by: ['system', 'staff'] },

  // A listing after approval, managed from My projects (issue 19). Every move below is audited.
  // A price change within 50% of the approved price is no move: the product's price changes in place
  // (audit 'listing.price'), whether the listing is in the shop or not.
  // The creator takes the listing out of the shop (POST /offer/{id}/unlist).
  { from: 'approved', to: 'unlisted', by: ['creator'], deal: 'listing', effects: "the product is hidden (no longer sold or shown); audit 'listing.unlist'" },
  // The creator puts it back (POST /offer/{id}/relist), at the price it had.
  { from: 'unlisted', to: 'approved', by: ['creator'], deal: 'listing', effects: "the product is published again; audit 'listing.relist'" },
  // A new price above 50% away from the approved one (up or down) goes back to review, listed or not:
  // staff approve it (the same product, published at the new price), suggest another price, or decline.
  {
    from: 'approved',
    to: 'pending',
    by: ['creator'],
    deal: 'listing',
    effects: "user_price becomes the new price, the product is hidden until staff approve; audit 'listing.price_review'",
  },
  { from: 'unlisted', to: 'pending', by: ['creator'], deal: 'listing', effects: "as from approved; audit 'listing.price_review'" },
];

/** A listing's new price needs staff again when it is more than 50% above or below the approved price. */
export function priceChangeNeedsReview(approvedMinor: number, newMinor: number): boolean {
  return Math.abs(newMinor - approvedMinor) * 2 > approvedMinor;
}

export function findTransition(from: OfferStatus, to: OfferStatus, deal: DealType = 'buyout'): Transition | undefined {
  return OFFER_TRANSITIONS.find((t) => t.from === from && t.to === to && (!t.deal || t.deal === deal));
}

export function canTransition(from: OfferStatus, to: OfferStatus, actor: OfferActor, deal: DealType = 'buyout'): boolean {
  return OFFER_TRANSITIONS.some((t) => t.from === from && t.to === to && (!t.deal || t.deal === deal) && t.by.includes(actor));
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
