import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { asDb, type Db } from '../../db/client';
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
 * Runs 10 minutes after the first message of a batch: one e-mail about every message the user has
 * still not read and has not been told of (younger ones of the same batch included). The next
 * message after it starts a new batch.
 */
export async function sendUnreadDigest(app: FastifyInstance, userId: number) {
  const [user] = await app.db.select({ email: users.email, name: users.name, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
  if (!user || user.deletedAt) return;
  await app.db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const mine = tx
      .select({ id: chats.id })
      .from(chats)
      .where(or(eq(chats.senderId, userId), eq(chats.recipientId, userId)));
    const due = await tx
      .update(chatMessages)
      .set({ digestedAt: sql`now()` })
      .where(and(inArray(chatMessages.chatId, mine), ne(chatMessages.userId, userId), isNull(chatMessages.readAt), isNull(chatMessages.digestedAt)))
      .returning({ id: chatMessages.id });
    if (!due.length) return;
    const count = due.length === 1 ? 'one unread message' : `${due.length} unread messages`;
    await sendMail(tx, {
      to: user.email,
      subject: `You have ${count} on Atelier`,
      text: `Hello ${user.name},\n\nYou have ${count} in your chats. Read them here:\n${app.config.publicUrl}/dashboard/chat\n`,
    });
  });
}

export function registerUnreadDigest(app: FastifyInstance) {
  app.jobs.register<{ userId: number }>(UNREAD_DIGEST_JOB, ({ userId }) => sendUnreadDigest(app, userId));
}
