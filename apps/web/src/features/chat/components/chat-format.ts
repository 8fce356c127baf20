import type { Chat, ChatParty } from '@atelier/shared';

const pad = (n: number) => String(n).padStart(2, '0');

/** SPEC §9: message times as 24-hour HH:MM in the reader's time zone. */
export function formatMessageTime(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The local calendar day of a time, as the separators group messages: 'today' or dd.mm.yyyy. */
export function dayLabel(iso: string, now = new Date()): 'today' | string {
  const d = new Date(iso);
  if (d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return 'today';
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
}

/** The other side of a chat, as the signed-in user sees it. */
export const otherParty = (chat: Chat, meId: number): ChatParty => (chat.sender.id === meId ? chat.recipient : chat.sender);

/** The chat's recipient (the person contacted) is the creator of the deal. */
export const isCreator = (chat: Chat, meId: number) => chat.recipient.id === meId;

/** SPEC §2: the other party's full name, else null (the caller shows 'User'). */
export function fullName(party: ChatParty): string | null {
  const name = `${party.first_name} ${party.last_name}`.trim();
  return name || null;
}
