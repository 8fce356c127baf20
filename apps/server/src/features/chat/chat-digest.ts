import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { chatMessages, chats, users } from '../../db/schema';
import { enqueue } from '../../lib/jobs';
import { sendMail } from '../../lib/mail';

/** Messages left unread this long are mentioned in one e-mail to their reader. */
export const UNREAD_DIGEST_DELAY_MS = 10 * 60 * 1000;
export const UNREAD_DIGEST_JOB = 'chat.unread-digest';

/** After a new message: one digest job per reader waits (a singleton), due 10 minutes on. */
export async function scheduleUnreadDigest(tx: Db, userId: number, after = UNREAD_DIGEST_DELAY_MS) {
  await enqueue(tx, UNREAD_DIGEST_JOB, { userId }, { runAt: new Date(Date.now() + after), singletonKey: `user:${userId}` });
}

/**
 * Sends one e-mail about the messages the user left unread for 10 minutes and has not been told of;
 * messages too young for this digest get a later one.
 */
export async function sendUnreadDigest(app: FastifyInstance, userId: number, now = new Date()) {
  const cutoff = new Date(now.getTime() - UNREAD_DIGEST_DELAY_MS);
  const [user] = await app.db.select({ email: users.email, name: users.name, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
  if (!user || user.deletedAt) return;
  await app.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const mine = tx
      .select({ id: chats.id })
      .from(chats)
      .where(or(eq(chats.senderId, userId), eq(chats.recipientId, userId)));
    const pending = await tx
      .select({ id: chatMessages.id, createdAt: chatMessages.createdAt })
      .from(chatMessages)
      .where(and(inArray(chatMessages.chatId, mine), ne(chatMessages.userId, userId), isNull(chatMessages.readAt), isNull(chatMessages.digestedAt)))
      .for('update', { of: chatMessages, skipLocked: true });
    const due = pending.filter((m) => m.createdAt <= cutoff);
    const later = pending.filter((m) => m.createdAt > cutoff);
    if (due.length) {
      await tx
        .update(chatMessages)
        .set({ digestedAt: sql`now()` })
        .where(
          inArray(
            chatMessages.id,
            due.map((m) => m.id),
          ),
        );
      const count = due.length === 1 ? 'one unread message' : `${due.length} unread messages`;
      await sendMail(tx, {
        to: user.email,
        subject: `You have ${count} on Atelier`,
        text: `Hello ${user.name},\n\nYou have ${count} in your chats. Read them here:\n${app.config.publicUrl}/dashboard/chat\n`,
      });
    }
    if (later.length) {
      const oldest = Math.min(...later.map((m) => m.createdAt.getTime()));
      // This job still runs, so the singleton would refuse: the follow-up goes without a key.
      await enqueue(tx, UNREAD_DIGEST_JOB, { userId }, { runAt: new Date(oldest + UNREAD_DIGEST_DELAY_MS) });
    }
  });
}

export function registerUnreadDigest(app: FastifyInstance) {
  app.jobs.register<{ userId: number }>(UNREAD_DIGEST_JOB, ({ userId }) => sendUnreadDigest(app, userId));
}
