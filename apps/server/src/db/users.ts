import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { users } from './schema';

/**
 * The one reader of a user row by id (issue 31): users, security and passkeys all need it, and
 * before it had one owner each feature read the row itself or imported another feature for it
 * (users → security → passkeys → users). Deleted and blocked accounts are returned as they are:
 * the caller decides what they may do.
 */
export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}
