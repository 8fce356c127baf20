import { PAYOUT_STATUSES } from '@atelier/shared';
import { describe, expect, it } from 'vitest';
import { canSettle, PAYOUT_IN_FLIGHT, PAYOUT_MESSAGES, PAYOUT_TRANSITIONS, type PayoutActor, payoutMove } from './payout-states';

describe('payout transition table', () => {
  it('lists exactly the moves of a payout, each with its effects, and every state but the ends has an exit', () => {
    expect(PAYOUT_TRANSITIONS.map((t) => `${t.from}>${t.to}`)).toEqual([
      'processing>paid',
      'processing>failed',
      'processing>needs_review',
      'needs_review>paid',
      'needs_review>failed',
    ]);
    for (const t of PAYOUT_TRANSITIONS) expect(t.effects.length).toBeGreaterThan(20);
    for (const s of PAYOUT_IN_FLIGHT) expect(PAYOUT_TRANSITIONS.some((t) => t.from === s && t.to === 'failed')).toBe(true);
  });

  it('walks every move the table allows and refuses every other (state × state × actor)', () => {
    const actors: PayoutActor[] = ['system', 'staff'];
    const allowed = new Set(PAYOUT_TRANSITIONS.flatMap((t) => t.by.map((a) => `${t.from}>${t.to}:${a}`)));
    expect([...allowed].sort()).toEqual(
      [
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
    for (const from of PAYOUT_STATUSES)
      for (const to of PAYOUT_STATUSES) for (const actor of actors) expect(canSettle(from, to, actor)).toBe(allowed.has(`${from}>${to}:${actor}`));
  });

  it('issue 30: staff mark a payout that needs review failed only once the provider said it did not pay', () => {
    const fail = payoutMove('needs_review', 'failed', 'staff')!;
    expect(fail.guard!({ providerState: 'unknown' })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(fail.guard!({ providerState: 'paid' })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(fail.guard!({ providerState: null })).toBe(PAYOUT_MESSAGES.providerNotAsked);
    expect(fail.guard!({ providerState: 'not_paid' })).toBeNull();
    expect(canSettle('needs_review', 'failed', 'system')).toBe(false);
  });
});
