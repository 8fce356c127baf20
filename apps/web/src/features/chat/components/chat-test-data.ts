import type { Chat, ChatMessage, ChatParty } from '@atelier/shared';

/** Shapes the chat tests share: the buyer is user 3, the creator user 7. */
export const party = (id: number, over: Partial<ChatParty> = {}): ChatParty => ({
  id,
  nickname: `user${id}`,
  first_name: '',
  last_name: '',
  avatar: null,
  isOnline: false,
  hourly_rate: 0,
  ...over,
});

export const buyer = party(3, { nickname: 'ines', first_name: 'Ines', last_name: 'Costa' });
export const creator = party(7, { nickname: 'sofia', first_name: 'Sofia', last_name: 'Reis', hourly_rate: 45, isOnline: true });

export function chatOf(over: Partial<Chat> = {}): Chat {
  return {
    id: 12,
    status: 'active',
    sender: buyer,
    recipient: creator,
    name: 'Sofia Reis',
    avatar: null,
    rate: 45,
    isOnline: true,
    unreadCount: 0,
    unread_messages_count: 0,
    last_message: null,
    last_message_at: new Date().toISOString(),
    blocked_by_me: false,
    blocked_me: false,
    ...over,
  };
}

export function messageOf(over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: 1,
    message: 'Hello',
    created_at: new Date().toISOString(),
    user: { id: 3 },
    type: 'text',
    attachment_url: null,
    attachment_name: null,
    is_locked: false,
    is_preview: false,
    price: null,
    product: null,
    ...over,
  };
}
