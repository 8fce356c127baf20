import { z } from 'zod';
import { widgetData } from './deposits';
import { plainNumber } from './fields';
import { orderTax } from './orders';

/** SPEC §9 and issue 11: chat limits and texts shared by server and web. */
export const CHAT_MESSAGE_MAX_CHARS = 5000;
export const CHAT_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const CHAT_MESSAGES_PAGE_SIZE = 30;
/** A user is online when seen in the last 2 minutes; last_seen_at moves at most once a minute. */
export const CHAT_ONLINE_WINDOW_MS = 2 * 60 * 1000;

export const CHAT_STATUSES = ['active', 'price_proposed', 'generating', 'waiting_payment'] as const;
export const chatStatus = z.enum(CHAT_STATUSES);
export type ChatStatus = z.infer<typeof chatStatus>;

/** The label the conversation header shows for a status (none while active). */
export const CHAT_STATUS_LABELS: Record<ChatStatus, string | null> = {
  active: null,
  price_proposed: 'Price offered',
  generating: 'Creating artwork...',
  waiting_payment: 'Waiting for payment',
};

/** The fixed texts the server writes into the conversation at each step of the deal. */
export const CHAT_SYSTEM_MESSAGES = {
  priceAccepted: 'Price accepted',
  negotiate: 'Asking for a better price',
  imageUnlocked: 'Image unlocked',
  noPrice: 'Cannot unlock: No price set for this image.',
  dealCancelled: 'Deal cancelled',
  dealExpired: 'No answer for 14 days: the deal was closed',
} as const;

/** Issue 17: a deal left waiting on one side this long returns to talking (a job per wait). */
export const CHAT_DEAL_WAIT_DAYS = 14;

/** One side of a conversation (SPEC §3 Chat: sender, recipient). `hourly_rate` in the display currency. */
export const chatParty = z.object({
  id: z.number().int(),
  nickname: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
  isOnline: z.boolean(),
  hourly_rate: z.number(),
});
export type ChatParty = z.infer<typeof chatParty>;

/** SPEC §3 Chat, as the signed-in user sees it: name, avatar, rate and isOnline are the other party's. */
export const chat = z.object({
  id: z.number().int(),
  status: chatStatus,
  sender: chatParty,
  recipient: chatParty,
  name: z.string(),
  avatar: z.string().nullable(),
  /** The other party's hourly rate in the display currency. */
  rate: z.number(),
  isOnline: z.boolean(),
  /** The true count; the web caps the badge with formatUnreadBadge. */
  unreadCount: z.number().int(),
  unread_messages_count: z.number().int(),
  last_message: z.string().nullable(),
  /** ISO time of the newest message (or of the opening). */
  last_message_at: z.string(),
  /** Whether the signed-in user blocked the other party, and whether they were blocked. */
  blocked_by_me: z.boolean(),
  blocked_me: z.boolean(),
});
export type Chat = z.infer<typeof chat>;

/**
 * SPEC §3 Chat message. `price` in the display currency, except a paid locked image's: what was paid
 * (issue 18 bug 7), in EUR (an unlock is charged in euros, from the balance or by card), with
 * `today` in the display currency as a hint when that is another. `currency` names the amount's
 * currency. `attachment_url` is a preview while locked.
 */
export const chatMessage = z.object({
  id: z.number().int(),
  message: z.string().nullable(),
  created_at: z.string(),
  user: z.object({ id: z.number().int() }),
  /** text, system (a fixed deal message), product (the card a chat opened from), price_proposal, attachment, locked_image. */
  type: z.string(),
  attachment_url: z.string().nullable(),
  attachment_name: z.string().nullable(),
  is_locked: z.boolean(),
  is_preview: z.boolean(),
  price: z
    .object({
      amount: z.number(),
      formatted: z.string(),
      currency: z.string().optional(),
      today: z.object({ amount: z.number(), currency: z.string() }).nullable().optional(),
    })
    .nullable(),
  product: z.object({ id: z.number().int(), slug: z.string(), title: z.string(), preview_url: z.string().nullable() }).nullable(),
  /** A paid image's VAT as its sale stored it (issue 33): null for every other message. */
  tax: orderTax.nullable().optional(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

const positiveId = (what: string) =>
  z.coerce
    .number({ error: `Please choose ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}.` })
    .int()
    .positive({ error: `Please choose ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}.` });

/** POST /chat: with whom (or about which product: its author). */
export const openChatInput = z.union([z.object({ recipient_id: positiveId('person') }), z.object({ product_id: positiveId('product') })], {
  error: 'Please choose a person or a product.',
});
export type OpenChatInput = z.infer<typeof openChatInput>;

export const chatIdParams = z.object({ chatId: z.coerce.number().int().positive() });
export const chatMessagesQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

/**
 * Amounts a client types are major units of the base currency (EUR), e.g. 25 or 25.5: at most two
 * decimals (a cent is the smallest amount). The server also keeps a price within the largest card
 * payment (the deposit_max setting), since a short balance pays it by card.
 */
const priceAmount = plainNumber(
  z
    .number({ error: 'Please enter a price.' })
    .positive({ error: 'The price must be more than 0.' })
    .max(100_000, { error: 'The price must be at most 100000.' }),
).refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { error: 'The price may have at most 2 decimals (cents).' });

/** The deal's answers a participant sends as `{action}` (issue 17: either side may cancel a running deal). */
export const CHAT_DEAL_ACTIONS = ['accept_price', 'negotiate_price', 'cancel_deal'] as const;
export type ChatDealAction = (typeof CHAT_DEAL_ACTIONS)[number];

/** The JSON bodies of POST /chat/{id}/messages: a text, a price proposal, or an answer to one. */
export const chatPriceProposalInput = z.object({ type: z.literal('price_proposal'), amount: priceAmount });
export const chatDealActionInput = z.object({ action: z.enum(CHAT_DEAL_ACTIONS, { error: 'Please choose accept_price, negotiate_price or cancel_deal.' }) });
export const chatTextInput = z.object({ message: z.string({ error: 'Please write a message.' }) });
export const sendChatMessageJson = z.union([chatPriceProposalInput, chatDealActionInput, chatTextInput]);
export type SendChatMessageJson = z.infer<typeof sendChatMessageJson>;
export { priceAmount as chatPriceAmount };

export const unlockInput = z.object({
  message_id: z.coerce.number({ error: 'Please choose a message.' }).int().positive({ error: 'Please choose a message.' }),
});
export type UnlockInput = z.infer<typeof unlockInput>;

/**
 * SPEC §7 unlock: a direct success paid from the balance, or, when the balance is short, a card
 * payment of exactly the price through the widget (`payment_type: "widget"`); the provider's webhook
 * then completes the unlock. `order_id` is the card payment, for its status (GET /deposit/status).
 */
export const unlockResult = z.union([
  z.object({ status: z.literal('Success'), message: chatMessage }),
  z.object({ status: z.literal('Pending'), payment_type: z.literal('widget'), widget_data: widgetData, order_id: z.number().int() }),
]);
export type UnlockResult = z.infer<typeof unlockResult>;

/** GET /chat/{id}/messages: the envelope carries `links.next` beside the payload (SPEC §7). */
export const chatMessagesPage = z.object({
  status: z.literal('OK'),
  payload: z.array(chatMessage),
  /** The address of the next (older) page, or null at the first message. */
  meta: z.object({ next: z.string().nullable() }),
});
export type ChatMessagesPage = z.infer<typeof chatMessagesPage>;

/** SPEC §9 scroll rules: within 100 px of the end counts as at the bottom; a scroll the app makes is flagged for 150 ms. */
export const CHAT_NEAR_BOTTOM_PX = 100;
export const CHAT_SCROLL_FLAG_MS = 150;
