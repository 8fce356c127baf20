import { type NotificationPreference, PREFERENCE_KINDS, type PreferenceKind } from '@atelier/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationPreferences } from '../../db/schema';

/** Whether a kind is one the user may silence (the others always ring). */
export const isPreferenceKind = (kind: string): kind is PreferenceKind => (PREFERENCE_KINDS as readonly string[]).includes(kind);

/** Every kind the user may silence, each on unless they turned it off (no row: both on). */
export async function readPreferences(db: Db, userId: number): Promise<NotificationPreference[]> {
  const rows = await db
    .select({ kind: notificationPreferences.kind, bell: notificationPreferences.bell, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return PREFERENCE_KINDS.map((kind) => {
    const row = rows.find((r) => r.kind === kind);
    return { kind, bell: row?.bell ?? true, email: row?.email ?? true };
  });
}

/** Writes the user's choice for the kinds named, in one statement; the others stay as they were. */
export async function savePreferences(db: Db, userId: number, list: NotificationPreference[]): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values(list.map((p) => ({ userId, kind: p.kind, bell: p.bell, email: p.email })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { bell: sql`excluded.bell`, email: sql`excluded.email`, updatedAt: sql`now()` },
    });
}

/** Whether the user wants this kind on this channel: kinds that cannot be silenced always ring. */
export async function wantsNotice(db: Db, userId: number, kind: string, channel: 'bell' | 'email'): Promise<boolean> {
  if (!isPreferenceKind(kind)) return true;
  const [row] = await db
    .select({ bell: notificationPreferences.bell, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind)))
    .limit(1);
  return row ? row[channel] : true;
}

/** SQL: the user (a column or value) turned `kind` off on `channel`, for statements that write notices in bulk. */
export function silencedSql(userId: ReturnType<typeof sql>, kind: PreferenceKind, channel: 'bell' | 'email') {
  return sql`exists (select 1 from notification_preferences np where np.user_id = ${userId} and np.kind = ${kind} and not np.${sql.raw(channel)})`;
}
