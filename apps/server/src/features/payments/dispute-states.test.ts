import { describe, expect, it } from 'vitest';
import { DISPUTE_TRANSITIONS, nextDisputeStatus } from './dispute-states';

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
  it('every move names its effects', () => {
    for (const t of DISPUTE_TRANSITIONS) expect(t.effects.length).toBeGreaterThan(20);
  });
});
