import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { disputeLifecycle, nextDisputeStatus } from './dispute-states';

describe('dispute transitions', () => {
  it('a dispute opens, then is won or lost', () => {
    expect(nextDisputeStatus(null, 'opened')).toBe('open');
    expect(nextDisputeStatus('open', 'won')).toBe('won');
    expect(nextDisputeStatus('open', 'lost')).toBe('lost');
  });
  it('nothing leaves won or lost, and an open dispute does not open again', () => {
    for (const from of ['won', 'lost'] as const) {
      expect(nextDisputeStatus(from, 'won')).toBeNull();
      expect(nextDisputeStatus(from, 'lost')).toBeNull();
      expect(nextDisputeStatus(from, 'opened')).toBeNull();
    }
    expect(nextDisputeStatus('open', 'opened')).toBeNull();
    expect(nextDisputeStatus(null, 'won')).toBeNull();
  });
  it('walks every move the table allows and refuses every other (state × state × actor); each names its effects', () => {
    expect(allowedMoves(disputeLifecycle, ['provider'])).toEqual(['new>open:provider', 'open>lost:provider', 'open>won:provider']);
    expect(disputeLifecycle.exitsOf('open').sort()).toEqual(['lost', 'won']);
    for (const m of disputeLifecycle.moves) expect(m.effects.length).toBeGreaterThan(0);
    expect(disputeLifecycle.find(null, 'open', 'provider')?.effects).toEqual(['hold', 'flag_user', 'notify_staff']);
  });
});
