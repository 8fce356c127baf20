import { z } from 'zod';
import { NOTIFICATION_KINDS } from './live-event-kinds';

export { LIVE_EVENT_KINDS, NOTIFICATION_KINDS } from './live-event-kinds';

export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

export const NOTIFICATIONS_PAGE_SIZE = 20;

/**
 * What the bell needs to word a notice in the page's language (issue 31): the work's title, the amount
 * (minor units of the base currency), how many works, and a refund's new status. Kinds without params
 * show `text`, the server's English wording.
 */
export const notificationParams = z.object({
  title: z.string().optional(),
  amount_minor: z.number().int().optional(),
  count: z.number().int().optional(),
  status: z.enum(['open', 'responded', 'refunded', 'rejected']).optional(),
});
export type NotificationParams = z.infer<typeof notificationParams>;

export const notification = z.object({
  id: z.number().int(),
  kind: notificationKind,
  text: z.string(),
  params: notificationParams.nullable(),
  /** Where the item leads in the web app, e.g. /dashboard/chat?chat=12. */
  link: z.string().nullable(),
  chat_id: z.number().int().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notification>;

export const notificationsQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export const notificationsPage = z.object({
  status: z.literal('OK'),
  payload: z.array(notification),
  /** How many are unread in all, and the address of the next page (null on the last). */
  meta: z.object({ unread_count: z.number().int(), next: z.string().nullable() }),
});
export type NotificationsPage = z.infer<typeof notificationsPage>;

/** POST /notifications/read: these ids, or every one when `ids` is left out. */
export const markNotificationsReadInput = z.object({ ids: z.array(z.number().int().positive()).max(500).optional() });
/** What POST /api/notifications/read answers: how many were marked, and what is left unread. */
export const markNotificationsReadResult = z.object({ marked: z.number().int(), unread_count: z.number().int() });
export type MarkNotificationsReadResult = z.infer<typeof markNotificationsReadResult>;

export const unreadCounts = z.object({ notifications: z.number().int(), chat_messages: z.number().int() });
export type UnreadCounts = z.infer<typeof unreadCounts>;

/** What the event stream (GET /api/events) says: `event: <kind>`, `data: LiveEvent`. */
export const liveEvent = z.object({
  kind: z.string(),
  chatId: z.number().int().nullable(),
  notificationId: z.number().int().nullable(),
});
export type LiveEvent = z.infer<typeof liveEvent>;

/** GET/PUT /api/notifications/settings: what the user is told by e-mail (issue 20: the weekly digest of followed creators' new works). */
export const notificationSettings = z.object({
  weekly_digest: z.boolean({ error: 'Weekly digest must be true or false.' }),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** The kinds a user may silence, for the bell and for e-mail (issue 31): a sale, a refund request, a refund's outcome, a new version of a bought work (issue 34). */
export const PREFERENCE_KINDS = ['sale_made', 'refund_requested', 'refund_status', 'product_updated'] as const;
export const preferenceKind = z.enum(PREFERENCE_KINDS, { error: `Kind must be one of: ${PREFERENCE_KINDS.join(', ')}.` });
export type PreferenceKind = z.infer<typeof preferenceKind>;

export const notificationPreference = z.object({
  kind: preferenceKind,
  bell: z.boolean({ error: 'Bell must be true or false.' }),
  email: z.boolean({ error: 'E-mail must be true or false.' }),
});
export type NotificationPreference = z.infer<typeof notificationPreference>;

/**
 * GET /api/user/notification-preferences answers every kind (on unless turned off); PUT takes the kinds
 * to change, each once, and answers the whole list.
 */
export const notificationPreferences = z.object({
  preferences: z
    .array(notificationPreference)
    .min(1, { error: 'Name at least one kind.' })
    .max(PREFERENCE_KINDS.length)
    .refine((list) => new Set(list.map((p) => p.kind)).size === list.length, { error: 'Each kind may appear once.' }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;
