import { type LiveEvent, type Notification, type NotificationKind, type NotificationParams, notificationParams } from '@atelier/shared';
import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { wantsNotice } from './preferences';

/** The PostgreSQL channel of live events; every app server LISTENs and feeds its SSE clients. */
export const EVENTS_CHANNEL = 'atelier_events';

/** What travels on the channel: whom it is for and what happened (never the content itself). */
export type EventSignal = LiveEvent & { userId: number };

/**
 * Tells the user's open event streams, on every app server, that something happened. Written with
 * the caller's `db | tx`: PostgreSQL sends NOTIFY on commit, so a rolled-back action announces nothing.
 */
export async function publishEvent(db: Db, signal: EventSignal): Promise<void> {
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(signal)})`);
}

/**
 * Stores a notification for the bell and announces it live, in the caller's transaction; a kind the
 * user turned off for the bell (preferences.ts) is not written. Answers the notification's id, or null.
 */
export async function notify(
  db: Db,
  input: { userId: number; kind: NotificationKind; text: string; link?: string | null; chatId?: number | null; data?: Record<string, unknown> },
): Promise<number | null> {
  if (!(await wantsNotice(db, input.userId, input.kind, 'bell'))) return null;
  const [row] = await db
    .insert(notifications)
    .values({
      userId: input.userId,
      kind: input.kind,
      text: input.text.slice(0, 300),
      link: input.link ?? null,
      chatId: input.chatId ?? null,
      data: input.data ?? {},
    })
    .returning({ id: notifications.id });
  await publishEvent(db, { userId: input.userId, kind: input.kind, chatId: input.chatId ?? null, notificationId: row!.id });
  return row!.id;
}

/** The wording params a notice was stored with (`data.params`), checked: a malformed one shows the text instead. */
function paramsOf(data: unknown): NotificationParams | null {
  const params = (data as { params?: unknown } | null)?.params;
  if (params === undefined) return null;
  const parsed = notificationParams.safeParse(params);
  return parsed.success ? parsed.data : null;
}

export function toNotification(row: typeof notifications.$inferSelect): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    text: row.text,
    params: paramsOf(row.data),
    link: row.link,
    chat_id: row.chatId,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** One page of a user's notifications, newest first, and whether an older page exists. */
export async function listNotifications(db: Db, userId: number, page: number, pageSize: number) {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { items: rows.slice(0, pageSize).map(toNotification), hasMore: rows.length > pageSize };
}

/** Notifications after `afterId` (a resumed event stream), oldest first. */
export async function notificationsAfter(db: Db, userId: number, afterId: number, limit = 100) {
  return db
    .select({ id: notifications.id, kind: notifications.kind, chatId: notifications.chatId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), sql`${notifications.id} > ${afterId}`))
    .orderBy(notifications.id)
    .limit(limit);
}

export async function unreadNotificationCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks the user's notifications read: the listed ids (others' ids are ignored), or all of them. */
export async function markNotificationsRead(db: Db, userId: number, ids?: number[]): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids.length ? ids : [0]) : undefined))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Drops read notifications older than `days` (kept small; a maintenance job may call it). */
export async function pruneNotifications(db: Db, days: number) {
  await db.delete(notifications).where(and(sql`${notifications.readAt} is not null`, lt(notifications.createdAt, sql`now() - make_interval(days => ${days})`)));
}
