import { createHash } from 'node:crypto';
import type { UserSession } from '@atelier/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import { coarseIp, describeUserAgent, deviceOf } from '../../lib/client-hints';
import { mailHtml, sendMail } from '../../lib/mail';
import { publishEvent } from '../notifications';

/**
 * The id a session is shown under: derived from its row id (itself a hash of the cookie), so the
 * list never hands out the key the database looks sessions up by.
 */
export const publicSessionId = (rowId: string) => createHash('sha256').update(`session-view:${rowId}`).digest('hex').slice(0, 24);

export async function listUserSessions(db: Db, userId: number, currentId: string | undefined): Promise<UserSession[]> {
  const rows = await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.lastSeenAt));
  // Issue 31: this browser first, then the others by when they were last seen.
  rows.sort((a, b) => Number(b.id === currentId) - Number(a.id === currentId));
  return rows.map((row) => ({
    id: publicSessionId(row.id),
    current: row.id === currentId,
    ...describeUserAgent(row.userAgent),
    device: deviceOf(row.userAgent),
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    ip_hint: row.ipHint,
    second_factor: row.secondFactorAt !== null,
  }));
}

/**
 * Signs sessions out: their next call is a guest's (401 on anything guarded), and a
 * `session_revoked` event makes each server end their live streams at once.
 */
async function endSessions(db: Db, userId: number, rowIds: string[]) {
  if (!rowIds.length) return 0;
  await db.transaction(async (tx) => {
    for (const id of rowIds) await tx.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, userId)));
    await publishEvent(tx, { userId, kind: 'session_revoked', chatId: null, notificationId: null });
  });
  return rowIds.length;
}

/** Signs out one of the user's sessions by its public id; false when the user has no such session. */
export async function revokeSession(db: Db, userId: number, publicId: string): Promise<boolean> {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  const match = rows.find((r) => publicSessionId(r.id) === publicId);
  if (!match) return false;
  await endSessions(db, userId, [match.id]);
  return true;
}

/** Signs out every session of the user but `keepId` (a password change, 'sign out everywhere else'). */
export async function revokeOtherSessions(db: Db, userId: number, keepId: string | undefined): Promise<number> {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  return endSessions(
    db,
    userId,
    rows.map((r) => r.id).filter((id) => id !== keepId),
  );
}

/**
 * The sign-in alert: a sign-in from a browser this account has not used before (no device cookie
 * for it) is told to the owner by e-mail, with the time, the browser, a coarse place and the link to
 * the Security screen where they can sign that browser out. Sent through the outbox like every mail.
 */
export async function sendNewBrowserAlert(app: FastifyInstance, request: FastifyRequest, user: { email: string; name: string }) {
  const { browser, os } = describeUserAgent(request.headers['user-agent'] ?? '');
  const network = coarseIp(request.ip) || 'an unknown address';
  const place = app.geoip.place(request.ip);
  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const url = `${app.config.publicUrl}/dashboard/security`;
  const lines = [
    `Hello ${user.name},`,
    `Your Atelier account was signed in to from a browser it has not used before.`,
    `When: ${when}`,
    `Browser: ${browser} on ${os}`,
    ...(place ? [`Place: ${place} (approximate)`] : []),
    `Network: ${network}`,
    `If this was you, there is nothing to do. If not, sign that browser out and change your password on the Security screen:`,
  ];
  await sendMail(app.db, {
    to: user.email,
    subject: 'New sign-in to your Atelier account',
    text: `${lines.join('\n')}\n${url}`,
    html: mailHtml(lines, { label: 'Review your sessions', url }),
  });
}
