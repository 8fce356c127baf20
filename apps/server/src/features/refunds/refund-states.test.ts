import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { findRefundTransition, illegalRefundMoveMessage, isRefundActive, refundLifecycle } from './refund-states';

describe('refund request transition table', () => {
  it('lists exactly the moves of a request: open → refunded | rejected; open → responded → refunded | rejected', () => {
    const moves = [...new Set(refundLifecycle.moves.map((t) => `${t.from ?? 'new'}>${t.to}`))].sort();
    expect(moves).toEqual(['new>open', 'open>refunded', 'open>rejected', 'open>responded', 'responded>refunded', 'responded>rejected'].sort());
    // Every (from, to, actor) there is: the listed ones allowed, every other refused.
    expect(allowedMoves(refundLifecycle, ['buyer', 'creator', 'staff'])).toEqual(
      [
        'new>open:buyer',
        'open>responded:creator',
        'open>refunded:creator',
        'responded>refunded:creator',
        'open>refunded:staff',
        'responded>refunded:staff',
        'open>rejected:staff',
        'responded>rejected:staff',
      ].sort(),
    );
    expect(refundLifecycle.exitsOf('open').sort()).toEqual(['refunded', 'rejected', 'responded']);
  });

  it('lets each party make only its own moves', () => {
    expect(findRefundTransition(null, 'open', 'buyer')).toBeDefined();
    expect(findRefundTransition(null, 'open', 'creator')).toBeUndefined();
    expect(findRefundTransition('open', 'responded', 'creator')).toBeDefined();
    expect(findRefundTransition('open', 'responded', 'buyer')).toBeUndefined();
    expect(findRefundTransition('responded', 'responded', 'creator')).toBeUndefined();
    expect(findRefundTransition('open', 'refunded', 'creator')).toBeDefined();
    expect(findRefundTransition('open', 'rejected', 'creator')).toBeUndefined();
    expect(findRefundTransition('open', 'refunded', 'buyer')).toBeUndefined();
    expect(findRefundTransition('responded', 'rejected', 'staff')).toBeDefined();
    expect(findRefundTransition('refunded', 'rejected', 'staff')).toBeUndefined();
    expect(findRefundTransition('rejected', 'refunded', 'staff')).toBeUndefined();
  });

  it('names the effects: every refund moves money and takes the file away, every staff decision is audited', () => {
    for (const t of refundLifecycle.moves) {
      expect(t.effects.includes('ledger_refund')).toBe(t.to === 'refunded');
      expect(t.effects.includes('revoke_access')).toBe(t.to === 'refunded');
      expect(t.effects.includes('audit')).toBe(t.by.includes('staff'));
      expect(t.effects.some((e) => e === 'notify_both' || e === 'notify_other_party')).toBe(true);
    }
    expect(isRefundActive('open')).toBe(true);
    expect(isRefundActive('responded')).toBe(true);
    expect(isRefundActive('refunded')).toBe(false);
    expect(illegalRefundMoveMessage('refunded', 'rejected')).toBe('This refund request is already refunded and cannot be rejected now.');
  });
});
