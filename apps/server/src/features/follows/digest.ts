import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, rowsOf } from '../../db/client';
import { mailHtml, sendMail } from '../../lib/mail';

/**
 * The weekly e-mail digest (issue 20): each follower who kept `weekly_digest` on gets one e-mail a week
 * listing the works published in the past week by creators they follow (the `new_work` notifications
 * written at publication), and nothing when there was none. A recurring job runs it once a week across
 * all app servers; each user's mail and their `digest_sent_at` are written in one transaction, so a
 * run that is retried or overlaps another never mails anyone twice.
 */
export const WEEKLY_DIGEST = 'follows.weekly_digest';
export const DIGEST_EVERY_SECONDS = 7 * 24 * 3600;
/** Works listed in one digest at most. */
const MAX_WORKS = 20;
const BATCH = 200;

type Recipient = { id: number; email: string; name: string; since: string };
type Work = { title: string; slug: string; product_type: string; nickname: string };

/** Users with the setting on and at least one new work since their last digest, within the past week. */
async function nextRecipients(db: Db, afterId: number): Promise<Recipient[]> {
  const result = await db.execute(sql`
    select u.id, u.email, u.name,
      greatest(now() - interval '7 days', coalesce(u.digest_sent_at, '-infinity'::timestamptz)) as since
    from users u
    where u.id > ${afterId} and u.weekly_digest and u.deleted_at is null and u.blocked_at is null
      and exists (
        select 1 from notifications n where n.user_id = u.id and n.kind = 'new_work'
          and n.created_at > greatest(now() - interval '7 days', coalesce(u.digest_sent_at, '-infinity'::timestamptz))
      )
    order by u.id limit ${BATCH}`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    id: Number(r.id),
    email: String(r.email),
    name: String(r.name),
    since: r.since instanceof Date ? r.since.toISOString() : String(r.since),
  }));
}

/** The works the user was told of since `since` that are still on sale, newest first. */
async function newWorksFor(db: Db, userId: number, since: string): Promise<Work[]> {
  const result = await db.execute(sql`
    select p.title, p.slug, p.product_type, a.nickname from products p join users a on a.id = p.author_id
    where p.status = 'published' and p.moderation is null and a.deleted_at is null and a.moderation is null and p.id in (
      select (n.data->>'productId')::bigint from notifications n
      where n.user_id = ${userId} and n.kind = 'new_work' and n.created_at > ${since}::timestamptz
    )
    order by p.created_at desc, p.id desc limit ${MAX_WORKS}`);
  return rowsOf<Work>(result);
}

function digestMail(siteUrl: string, user: Recipient, works: Work[]) {
  const link = (w: Work) => `${siteUrl}/${w.product_type === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(w.slug)}`;
  const lines = works.map((w) => `“${w.title}” by @${w.nickname}: ${link(w)}`);
  const settings = `${siteUrl}/dashboard/contact`;
  const intro =
    works.length === 1 ? 'A creator you follow published a new work this week:' : `Creators you follow published ${works.length} new works this week:`;
  return {
    to: user.email,
    subject: works.length === 1 ? 'A new work from a creator you follow' : `${works.length} new works from creators you follow`,
    text: `Hello ${user.name},\n\n${intro}\n\n${lines.join('\n')}\n\nYou get this e-mail once a week. Turn it off under Notifications in your profile: ${settings}`,
    html: mailHtml([`Hello ${user.name},`, intro, ...lines, 'You get this e-mail once a week. Turn it off under Notifications in your profile.'], {
      label: 'Notification settings',
      url: settings,
    }),
  };
}

/** Sends this week's digests; returns how many e-mails were written to the outbox. */
export async function sendWeeklyDigests(db: Db, siteUrl: string): Promise<number> {
  let sent = 0;
  let afterId = 0;
  for (;;) {
    const batch = await nextRecipients(db, afterId);
    if (batch.length === 0) return sent;
    for (const user of batch) {
      afterId = user.id;
      const works = await newWorksFor(db, user.id, user.since);
      if (works.length === 0) continue;
      await db.transaction(async (tx) => {
        // Claims this user's digest: a second run that read the same state finds it taken and sends nothing.
        const claimed = await tx.execute(sql`
          update users set digest_sent_at = now()
          where id = ${user.id} and coalesce(digest_sent_at, '-infinity'::timestamptz) < now() - interval '6 days'
          returning id`);
        if (rowsOf<unknown>(claimed).length === 0) return;
        await sendMail(tx, digestMail(siteUrl, user, works));
        sent += 1;
      });
    }
  }
}

/** Registers the digest job and its weekly schedule on the app's queue. */
export function registerWeeklyDigest(app: FastifyInstance) {
  app.jobs.register(WEEKLY_DIGEST, async (_payload, ctx) => {
    const sent = await sendWeeklyDigests(ctx.db, app.config.publicUrl);
    if (sent > 0) ctx.log.info({ sent }, 'weekly digests written');
  });
  app.jobs.schedule(WEEKLY_DIGEST, DIGEST_EVERY_SECONDS);
}
