import { CHAT_STATUSES, type ChatStatus } from '@atelier/shared';
import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { type ChatEvent, chatDealLifecycle, chatTransitions, nextChatStatus, waitingOn } from './chat-states';

const EVENTS: ChatEvent[] = ['propose_price', 'accept_price', 'negotiate_price', 'send_locked_image', 'unlock_paid', 'cancel_deal', 'expire_deal'];
const RUNNING: ChatStatus[] = ['price_proposed', 'generating', 'waiting_payment'];

describe('chat deal states', () => {
  it('walks the happy path: propose, negotiate, propose, accept, locked image, paid', () => {
    const steps: [ChatEvent, 'creator' | 'buyer', string][] = [
      ['propose_price', 'creator', 'price_proposed'],
      ['negotiate_price', 'buyer', 'active'],
      ['propose_price', 'creator', 'price_proposed'],
      ['accept_price', 'buyer', 'generating'],
      ['send_locked_image', 'creator', 'waiting_payment'],
      ['unlock_paid', 'buyer', 'active'],
    ];
    let status: ChatStatus = 'active';
    for (const [event, role, expected] of steps) {
      const next = nextChatStatus(status, event, role);
      expect(next).toEqual({ to: expected });
      if ('to' in next) status = next.to;
    }
  });

  it('refuses every move the table does not list, naming wrong role apart from wrong state', () => {
    for (const from of CHAT_STATUSES) {
      for (const event of EVENTS) {
        for (const mover of ['creator', 'buyer', 'system'] as const) {
          const listed = chatTransitions.find((t) => t.from === from && t.event === event);
          const result = nextChatStatus(from, event, mover);
          const allowed = listed && (listed.by === mover || (listed.by === 'either' && mover !== 'system'));
          if (!listed) expect(result).toEqual({ refused: 'state' });
          else if (!allowed) expect(result).toEqual({ refused: 'role' });
          else expect(result).toEqual({ to: listed.to });
        }
      }
    }
    expect(nextChatStatus('active', 'accept_price', 'buyer')).toEqual({ refused: 'state' });
    expect(nextChatStatus('price_proposed', 'accept_price', 'creator')).toEqual({ refused: 'role' });
    expect(nextChatStatus('generating', 'propose_price', 'creator')).toEqual({ refused: 'state' });
    expect(nextChatStatus('generating', 'expire_deal', 'buyer')).toEqual({ refused: 'role' });
    expect(nextChatStatus('active', 'cancel_deal', 'buyer')).toEqual({ refused: 'state' });
  });

  it('on the lifecycle helper: every (from, to, actor) it allows is listed, every running deal has its exits', () => {
    expect(allowedMoves(chatDealLifecycle, ['creator', 'buyer', 'system'])).toEqual(
      [
        'active>price_proposed:creator',
        'price_proposed>generating:buyer',
        'price_proposed>active:buyer',
        'price_proposed>active:creator',
        'price_proposed>active:system',
        'generating>waiting_payment:creator',
        'generating>active:buyer',
        'generating>active:creator',
        'generating>active:system',
        'waiting_payment>active:buyer',
        'waiting_payment>active:creator',
        'waiting_payment>active:system',
      ].sort(),
    );
    for (const running of RUNNING) expect(chatDealLifecycle.exitsOf(running)).toContain('active');
    expect(chatDealLifecycle.rests).toEqual(['active']);
  });

  it('every status can be left and reached', () => {
    for (const status of CHAT_STATUSES) {
      expect(chatTransitions.some((t) => t.from === status)).toBe(true);
      expect(chatTransitions.some((t) => t.to === status)).toBe(true);
    }
  });

  it('hole 8: every running deal has its exits: either side cancels, the system expires it, both back to active', () => {
    for (const from of RUNNING) {
      for (const role of ['creator', 'buyer'] as const) expect(nextChatStatus(from, 'cancel_deal', role)).toEqual({ to: 'active' });
      expect(nextChatStatus(from, 'expire_deal', 'system')).toEqual({ to: 'active' });
      // Each running state waits on one side, so its wait can expire.
      expect(waitingOn(from)).not.toBeNull();
    }
    expect(waitingOn('price_proposed')).toBe('buyer');
    expect(waitingOn('generating')).toBe('creator');
    expect(waitingOn('waiting_payment')).toBe('buyer');
    expect(waitingOn('active')).toBeNull();
  });

  it('hole 8: each row names its effects: a message and a notification always, the charge only when the image is paid', () => {
    for (const t of chatTransitions) {
      expect(t.effects.message.kind).toMatch(/^(price_proposal|locked_image|system)$/);
      expect(t.effects.notify).toBeTruthy();
      // A move into a running deal starts a wait; a move back to talking ends the deal's price.
      expect(t.effects.waitsOn !== null).toBe(t.to !== 'active');
      if (t.to === 'active') expect(t.effects.price).toBe('clear');
    }
    expect(chatTransitions.filter((t) => t.effects.charge !== 'none').map((t) => [t.event, t.effects.charge])).toEqual([['unlock_paid', 'image_price']]);
  });
});
