import { OFFER_STATUSES } from '@atelier/shared';
import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { canTransition, illegalMoveMessage, OFFER_TRANSITIONS, offerLifecycles, priceChangeNeedsReview } from './offer-states';

describe('offer transition table', () => {
  it('lists exactly the moves of the offer life', () => {
    expect(OFFER_TRANSITIONS.map((t) => `${t.from}>${t.to}`).sort()).toEqual(
      [
        'null>pending',
        'pending>offer',
        'pending>declined_by_service',
        'pending>declined',
        // A listing approved as it is by staff (published, no payout).
        'pending>approved',
        // Accepting the counter-offer: one row for a buyout, one for a listing (their effects differ).
        'offer>approved',
        'offer>approved',
        'offer>declined_by_user',
        'approved>payout_processing',
        'payout_processing>paid',
        'payout_processing>approved',
        // A listing after approval (issue 19): unlist, relist, and a price change above 50% back to review.
        'approved>unlisted',
        'unlisted>approved',
        'approved>pending',
        'unlisted>pending',
      ].sort(),
    );
  });

  it('walks every move of each deal type and refuses every other (state × state × actor)', () => {
    const actors = ['creator', 'staff', 'system'] as const;
    const both = [
      'new>pending:creator',
      'pending>offer:staff',
      'pending>declined_by_service:staff',
      'pending>declined:staff',
      'offer>approved:creator',
      'offer>declined_by_user:creator',
      'payout_processing>paid:system',
      'payout_processing>paid:staff',
      'payout_processing>approved:system',
      'payout_processing>approved:staff',
    ];
    expect(allowedMoves(offerLifecycles.buyout, actors)).toEqual([...both, 'approved>payout_processing:creator'].sort());
    expect(allowedMoves(offerLifecycles.listing, actors)).toEqual(
      [
        ...both,
        'pending>approved:staff',
        'approved>unlisted:creator',
        'unlisted>approved:creator',
        'approved>pending:creator',
        'unlisted>pending:creator',
      ].sort(),
    );
  });

  it('lets each party make only its own moves', () => {
    expect(canTransition('pending', 'offer', 'staff')).toBe(true);
    expect(canTransition('pending', 'offer', 'creator')).toBe(false);
    expect(canTransition('offer', 'approved', 'creator')).toBe(true);
    expect(canTransition('offer', 'approved', 'staff')).toBe(false);
    expect(canTransition('approved', 'payout_processing', 'creator')).toBe(true);
    expect(canTransition('payout_processing', 'paid', 'creator')).toBe(false);
    expect(canTransition('payout_processing', 'paid', 'system')).toBe(true);
    expect(canTransition('payout_processing', 'approved', 'staff')).toBe(true);
  });

  it('listings: staff may approve one as it is, and it is never paid out', () => {
    expect(canTransition('pending', 'approved', 'staff', 'listing')).toBe(true);
    expect(canTransition('pending', 'approved', 'staff', 'buyout')).toBe(false);
    expect(canTransition('pending', 'approved', 'creator', 'listing')).toBe(false);
    expect(canTransition('offer', 'approved', 'creator', 'listing')).toBe(true);
    expect(canTransition('approved', 'payout_processing', 'creator', 'listing')).toBe(false);
    expect(canTransition('approved', 'payout_processing', 'creator', 'buyout')).toBe(true);
  });

  it('listings after approval: only the creator unlists, relists or reprices into review, and only a listing', () => {
    expect(canTransition('approved', 'unlisted', 'creator', 'listing')).toBe(true);
    expect(canTransition('unlisted', 'approved', 'creator', 'listing')).toBe(true);
    expect(canTransition('approved', 'pending', 'creator', 'listing')).toBe(true);
    expect(canTransition('unlisted', 'pending', 'creator', 'listing')).toBe(true);
    expect(canTransition('approved', 'unlisted', 'creator', 'buyout')).toBe(false);
    expect(canTransition('approved', 'pending', 'creator', 'buyout')).toBe(false);
    expect(canTransition('approved', 'unlisted', 'staff', 'listing')).toBe(false);
    expect(canTransition('unlisted', 'unlisted', 'creator', 'listing')).toBe(false);
    expect(canTransition('unlisted', 'payout_processing', 'creator', 'listing')).toBe(false);
    expect(canTransition('pending', 'unlisted', 'creator', 'listing')).toBe(false);
  });

  it('a new price more than 50% above or below the approved one needs review; 50% exactly does not', () => {
    expect(priceChangeNeedsReview(4000, 6000)).toBe(false);
    expect(priceChangeNeedsReview(4000, 6001)).toBe(true);
    expect(priceChangeNeedsReview(4000, 2000)).toBe(false);
    expect(priceChangeNeedsReview(4000, 1999)).toBe(true);
    expect(priceChangeNeedsReview(4000, 4000)).toBe(false);
  });

  it('refuses paying twice, accepting a declined offer and a payout before acceptance', () => {
    expect(canTransition('paid', 'payout_processing', 'creator')).toBe(false);
    expect(canTransition('payout_processing', 'payout_processing', 'creator')).toBe(false);
    expect(canTransition('declined_by_service', 'approved', 'creator')).toBe(false);
    expect(canTransition('pending', 'payout_processing', 'creator')).toBe(false);
    expect(canTransition('offer', 'payout_processing', 'creator')).toBe(false);
  });

  it('has no way out of the final states', () => {
    for (const final of ['declined', 'declined_by_service', 'declined_by_user', 'paid'] as const) {
      for (const to of OFFER_STATUSES) for (const actor of ['creator', 'staff', 'system'] as const) expect(canTransition(final, to, actor)).toBe(false);
    }
  });

  it('explains a refused move', () => {
    expect(illegalMoveMessage('paid', 'payout_processing')).toBe('This offer is paid and cannot be paid out now.');
  });
});
