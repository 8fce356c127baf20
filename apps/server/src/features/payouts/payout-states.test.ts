import { describe, expect, it } from 'vitest';
import { canSettle, PAYOUT_TRANSITIONS } from './payout-states';

describe('payout transition table', () => {
  it('lists exactly the ends of a payout, each with its effects', () => {
    expect(PAYOUT_TRANSITIONS.map((t) => `${t.from}>${t.to}`)).toEqual(['processing>paid', 'processing>failed']);
    for (const t of PAYOUT_TRANSITIONS) expect(t.effects.length).toBeGreaterThan(20);
  });

  it('lets the job and staff end a processing payout, and nothing end it twice', () => {
    expect(canSettle('processing', 'paid', 'system')).toBe(true);
    expect(canSettle('processing', 'failed', 'staff')).toBe(true);
    expect(canSettle('paid', 'failed', 'staff')).toBe(false);
    expect(canSettle('failed', 'paid', 'system')).toBe(false);
    expect(canSettle('paid', 'paid', 'system')).toBe(false);
  });
});
