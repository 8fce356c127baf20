import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { mailOutbox, notifications, products, users } from '../../db/schema';
import { DIGEST_EVERY_SECONDS } from './digest';

const t = useTestApp({ seed: true });

/** The digests in the outbox for an address (sign-up mail left out). */
const mailsTo = async (email: string) =>
  (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter((m) => /creators? you follow/.test(m.subject));
/** Runs the queue as it will be once the weekly schedule is due. */
const runWeek = (weeks = 1) => t.app.jobs.runDue({ at: new Date(Date.now() + weeks * (DIGEST_EVERY_SECONDS + 60) * 1000) });

describe('the weekly digest of new works', () => {
  it('the notification setting: on by default, turned off and on again; a guest gets 401 and a bad value 422', async () => {
    const me = await registerPerson(t.app);
    expect((await me.client.get('/api/notifications/settings')).json().payload).toEqual({ weekly_digest: true });
    const off = await me.client.put('/api/notifications/settings', { weekly_digest: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ payload: { weekly_digest: false }, message: 'The weekly digest is off.' });
    expect((await me.client.get('/api/notifications/settings')).json().payload).toEqual({ weekly_digest: false });
    const bad = await me.client.put('/api/notifications/settings', { weekly_digest: 'sometimes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.weekly_digest).toBeDefined();
    expect((await new TestClient(t.app).get('/api/notifications/settings')).statusCode).toBe(401);
    // Another user's setting is their own.
    const other = await registerPerson(t.app);
    expect((await other.client.get('/api/notifications/settings')).json().payload).toEqual({ weekly_digest: true });
  });

  it("mails, through the job queue, followers who kept it on the past week's works by creators they follow, once", async () => {
    const creator = await registerPerson(t.app);
    const [{ nickname }] = (await t.app.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, creator.id))) as [{ nickname: string }];
    const keen = await registerPerson(t.app);
    const quiet = await registerPerson(t.app);
    const stranger = await registerPerson(t.app);
    for (const fan of [keen, quiet]) expect((await fan.client.post(`/api/creators/${nickname}/follow`)).statusCode).toBe(200);
    expect((await quiet.client.put('/api/notifications/settings', { weekly_digest: false })).statusCode).toBe(200);

    const [old, fresh, alsoFresh] = (await seededProducts(t.app, 'image')).slice(-3) as [
      typeof products.$inferSelect,
      typeof products.$inferSelect,
      typeof products.$inferSelect,
    ];
    await t.app.db
      .update(products)
      .set({ authorId: creator.id, status: 'draft' })
      .where(inArray(products.id, [old.id, fresh.id, alsoFresh.id]));
    const staff = await registerStaff(t.app);
    const publish = async (id: number) =>
      expect((await staff.client.request('PATCH', `/api/admin/products/${id}`, { body: { status: 'published' } })).statusCode).toBe(200);
    // One work came out more than a week ago: its notice is older than the digest's week.
    await publish(old.id);
    await t.app.db.execute(sql`update notifications set created_at = now() - interval '8 days'
      where kind = 'new_work' and (data->>'productId')::bigint = ${old.id}`);
    await publish(fresh.id);
    await publish(alsoFresh.id);

    await runWeek();
    const [mail, ...more] = await mailsTo(keen.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('2 new works from creators you follow');
    expect(mail!.text).toContain(`“${fresh.title}” by @${nickname}`);
    expect(mail!.text).toContain(`/products/${fresh.slug}`);
    expect(mail!.text).toContain(`“${alsoFresh.title}”`);
    expect(mail!.text).not.toContain(old.title);
    expect(mail!.html).toContain('Notification settings');
    // The follower who turned it off, and someone who follows no one, get nothing.
    expect(await mailsTo(quiet.email)).toEqual([]);
    expect(await mailsTo(stranger.email)).toEqual([]);
    // The bell still has them all.
    expect((await t.app.db.select().from(notifications).where(eq(notifications.userId, quiet.id))).filter((n) => n.kind === 'new_work')).toHaveLength(3);

    // The next run (the job retried, or another server's) sends no second digest for the same week.
    await runWeek(2);
    expect(await mailsTo(keen.email)).toHaveLength(1);
  });
});
