/*
 * The kinds of notification and of live event, without the schema library: the web app's live stream
 * runs in every signed-in tab's layout and imports this file alone (issue 12: first-load size).
 */

/** Every kind of notification; chat kinds are written by the chat, the others by their features. */
export const NOTIFICATION_KINDS = [
  'new_message',
  'price_proposed',
  'price_accepted',
  'price_negotiated',
  'image_ready',
  'image_unlocked',
  'deal_cancelled',
  'deal_expired',
  'offer_status',
  'payout_paid',
  'deposit_succeeded',
  'sale_made',
  'review_received',
  'review_replied',
  'new_work',
  'withdrawal_status',
  /** To staff: a card payment was disputed (a chargeback, issue 19). */
  'dispute_opened',
  /** To a creator: a buyer asked for a refund of their work (issue 31). */
  'refund_requested',
  /** A refund request moved on: the creator answered, it was refunded or rejected. */
  'refund_status',
  /** To a buyer: an image they paid for finished (or was refunded) after their request had ended (issue 29). */
  'generation_finished',
  /** Notice and action (issue 33): the author's statement of reasons, and the reporter's outcome. */
  'report_decision',
  /** To a buyer: the creator shipped a new version of a work they own (issue 34). */
  'product_updated',
] as const;

/**
 * Every event the stream (GET /api/events) sends: the notification kinds, plus changes that ring no
 * bell. `account_blocked` is the stream's last event: staff blocked the account (issue 18 bug 3).
 * `session_revoked` too, sent only to the streams of a session the user signed out (issue 21).
 */
export const LIVE_EVENT_KINDS = ['ready', 'chat_updated', 'chat_read', 'account_blocked', 'session_revoked', ...NOTIFICATION_KINDS] as const;
