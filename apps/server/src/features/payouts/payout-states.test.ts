import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { canSettle, PAYOUT_IN_FLIGHT, PAYOUT_MESSAGES, payoutLifecycle, payoutMove } from './payout-states';

describe('payout lifecycle', () => {
  it('walks every move the table allows and refuses every other (state × state × actor)', () => {
    expect(allowedMoves(payoutLifecycle, ['system', 'staff'])).toEqual(
      [
        'new>processing:system',
        'processing>paid:system',
        'processing>paid:staff',
        'processing>failed:system',
        'processing>failed:staff',
        'processing>needs_review:system',
        'needs_review>paid:system',
        'needs_review>paid:staff',
        'needs_review>failed:staff',
      ].sort(),
    );
  });

  it('has exits: every payout in flight can still fail, and the ends have no move', () => {
    for (const s of PAYOUT_IN_FLIGHT) expect(payoutLifecycle.exitsOf(s)).toContain('failed');
    expect(payoutLifecycle.exitsOf('paid')).toEqual([]);
    expect(payoutLifecycle.exitsOf('failed')).toEqual([]);
    expect(payoutMove('processing', 'paid', 'system')!.effects).toContain('pay');
    expect(payoutMove('processing', 'needs_review', 'system')!.effects).toEqual(['ask_provider']);
  });

  it('issue 30: staff mark a payout that needs review failed only once the provider said it did not pay', () => {
    expect(payoutLifecycle.refusal('needs_review', 'failed', 'staff', { providerState: 'unknown' })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(payoutLifecycle.refusal('needs_review', 'failed', 'staff', { providerState: 'paid' })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(payoutLifecycle.refusal('needs_review', 'failed', 'staff', { providerState: null })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(payoutLifecycle.refusal('needs_review', 'failed', 'staff', { providerState: 'not_paid' })).toBeNull();
    expect(payoutLifecycle.refusal('needs_review', 'failed', 'system', { providerState: 'not_paid' })).toBe('notListed');
    expect(canSettle('paid', 'failed', 'staff')).toBe(false);
  });
});
