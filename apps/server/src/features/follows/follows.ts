import { idFromKey } from '@atelier/shared';
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { follows, users } from '../../db/schema';
import { publicUrl } from '../../lib/storage';
import { EVENTS_CHANNEL } from '../notifications';

/** The creator a nickname (any case) or an id names, not deleted. */
export async function findCreator(db: Db, key: string) {
  const id = idFromKey(key);
  const byKey: SQL =
    id !== null ? sql`(${users.id} = ${id} or lower(${users.nickname}) = ${key.toLowerCase()})` : sql`lower(${users.nickname}) = ${key.toLowerCase()}`;
  const [row] = await db
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(and(byKey, isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function followersCount(db: Db, creatorId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(follows).where(eq(follows.creatorId, creatorId));
  return Number(row?.n ?? 0);
}

export async function listFollowing(db: Db, followerId: number) {
  const rows = await db
    .select({ id: users.id, nickname: users.nickname, name: users.name, surname: users.surname, avatarPath: users.avatarPath, at: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.creatorId))
    .where(and(eq(follows.followerId, followerId), isNull(users.deletedAt)))
    .orderBy(desc(follows.createdAt))
    .limit(1000);
  return rows.map((r) => ({
    id: Number(r.id),
    nickname: r.nickname,
    name: `${r.name} ${r.surname}`.trim(),
    avatar: publicUrl(r.avatarPath),
    followed_at: r.at.toISOString(),
  }));
}

/**
 * Tells every follower of the work's author that it is out: one `new_work` notification each and a
 * live event on commit, written by one statement in the publishing transaction (as notify() does for one).
 */
export async function notifyFollowersOfNewWork(
  tx: Db,
  work: { id: number; title: string; slug: string; productType: string; authorId: number; authorNickname: string },
): Promise<void> {
  const link = `/${work.productType === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(work.slug)}`;
  const text = `@${work.authorNickname} published a new work: “${work.title}”.`.slice(0, 300);
  await tx.execute(sql`
    with notes as (
      insert into notifications (user_id, kind, text, link, data)
      select f.follower_id, 'new_work', ${text}, ${link}, jsonb_build_object('productId', ${work.id}::bigint)
      from ${follows} f where f.creator_id = ${work.authorId}
      returning id, user_id
    )
    select pg_notify(${EVENTS_CHANNEL}, json_build_object('userId', user_id, 'kind', 'new_work', 'chatId', null, 'notificationId', id)::text) from notes`);
}
