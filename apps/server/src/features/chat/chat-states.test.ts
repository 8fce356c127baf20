import { CHAT_STATUSES } from '@atelier/shared';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, chatTransitions, nextChatStatus } from './chat-states';

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
    let status = 'active' as (typeof CHAT_STATUSES)[number];
    for (const [event, role, expected] of steps) {
      const next = nextChatStatus(status, event, role);
      expect(next).toEqual({ to: expected });
      if ('to' in next) status = next.to;
    }
  });

  it('refuses every move the table does not list, naming wrong role apart from wrong state', () => {
    const events: ChatEvent[] = ['propose_price', 'accept_price', 'negotiate_price', 'send_locked_image', 'unlock_paid'];
    for (const from of CHAT_STATUSES) {
      for (const event of events) {
        for (const role of ['creator', 'buyer'] as const) {
          const listed = chatTransitions.find((t) => t.from === from && t.event === event);
          const result = nextChatStatus(from, event, role);
          if (!listed) expect(result).toEqual({ refused: 'state' });
          else if (listed.by !== role) expect(result).toEqual({ refused: 'role' });
          else expect(result).toEqual({ to: listed.to });
        }
      }
    }
    expect(nextChatStatus('active', 'accept_price', 'buyer')).toEqual({ refused: 'state' });
    expect(nextChatStatus('price_proposed', 'accept_price', 'creator')).toEqual({ refused: 'role' });
    expect(nextChatStatus('generating', 'propose_price', 'creator')).toEqual({ refused: 'state' });
  });

  it('every status can be left and reached', () => {
    for (const status of CHAT_STATUSES) {
      expect(chatTransitions.some((t) => t.from === status)).toBe(true);
      expect(chatTransitions.some((t) => t.to === status)).toBe(true);
    }
  });
});
