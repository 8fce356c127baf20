import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { openStream } from '../../../test/event-stream';
import { TestClient, useTestApp } from '../../../test/test-app';
import { products, users } from '../../db/schema';

const t = useTestApp({ seed: true });

const nicknameOf = async (id: number) => (await t.app.db.select({ n: users.nickname }).from(users).where(eq(users.id, id)))[0]!.n;

describe('following creators', () => {
  it('follows and unfollows; the profile shows the follower count; a guest gets 401', async () => {
    const creator = await registerPerson(t.app);
    const nickname = await nicknameOf(creator.id);
    expect((await new TestClient(t.app).post(`/api/creators/${nickname}/follow`)).statusCode).toBe(401);

    const fan = await registerPerson(t.app);
    const followed = await fan.client.post(`/api/creators/${nickname.toUpperCase()}/follow`);
    expect(followed.statusCode).toBe(200);
    expect(followed.json().payload).toEqual({ nickname, following: true, followers_count: 1 });
    // Following twice changes nothing.
    expect((await fan.client.post(`/api/creators/${nickname}/follow`)).json().payload.followers_count).toBe(1);

    expect((await new TestClient(t.app).get(`/api/user/public-profile/${nickname}`)).json().payload).toMatchObject({ followers_count: 1, following: false });
    expect((await fan.client.get(`/api/user/public-profile/${nickname}`)).json().payload).toMatchObject({ followers_count: 1, following: true });

    const list = (await fan.client.get('/api/user/following')).json().payload;
    expect(list).toEqual([expect.objectContaining({ id: creator.id, nickname })]);
    // Another user's following list is their own.
    const other = await registerPerson(t.app);
    expect((await other.client.get('/api/user/following')).json().payload).toEqual([]);

    const unfollowed = await fan.client.delete(`/api/creators/${nickname}/follow`);
    expect(unfollowed.json().payload).toEqual({ nickname, following: false, followers_count: 0 });
    expect((await fan.client.get('/api/user/following')).json().payload).toEqual([]);
  });

  it('refuses following oneself (422) and an unknown creator (404)', async () => {
    const me = await registerPerson(t.app);
    const self = await me.client.post(`/api/creators/${await nicknameOf(me.id)}/follow`);
    expect(self.statusCode).toBe(422);
    expect(self.json().errors.nickname[0]).toBe('You cannot follow yourself.');
    expect((await me.client.post('/api/creators/nobody-by-this-name/follow')).statusCode).toBe(404);
  });

  it("a follower gets a new_work notification when staff publish the creator's draft, once", async () => {
    const creator = await registerPerson(t.app);
    const nickname = await nicknameOf(creator.id);
    const fan = await registerPerson(t.app);
    const bystander = await registerPerson(t.app);
    await fan.client.post(`/api/creators/${nickname}/follow`);
    const [work] = await seededProducts(t.app, 'doc');
    await t.app.db.update(products).set({ authorId: creator.id, status: 'draft' }).where(eq(products.id, work!.id));

    const staff = await registerStaff(t.app);
    expect((await staff.client.request('PATCH', `/api/admin/products/${work!.id}`, { body: { status: 'published' } })).statusCode).toBe(200);
    const bell = (await fan.client.get('/api/notifications')).json();
    expect(bell.payload[0]).toMatchObject({ kind: 'new_work', link: `/products/${work!.slug}` });
    expect(bell.payload[0].text).toContain(work!.title);
    expect((await bystander.client.get('/api/notifications')).json().payload).toEqual([]);

    // Hiding and showing it again is no new work.
    await staff.client.request('PATCH', `/api/admin/products/${work!.id}`, { body: { status: 'hidden' } });
    await staff.client.request('PATCH', `/api/admin/products/${work!.id}`, { body: { status: 'published' } });
    const after = (await fan.client.get('/api/notifications')).json().payload;
    expect(after.filter((n: { kind: string }) => n.kind === 'new_work')).toHaveLength(1);
  });

  it("a follower's open event stream gets the new_work live event within 2 s of the publication (the issue's bound)", async () => {
    const creator = await registerPerson(t.app);
    const nickname = await nicknameOf(creator.id);
    const fan = await registerPerson(t.app);
    await fan.client.post(`/api/creators/${nickname}/follow`);
    const work = (await seededProducts(t.app, 'prompt'))[0]!;
    await t.app.db.update(products).set({ authorId: creator.id, status: 'draft' }).where(eq(products.id, work.id));

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, fan.client);
    try {
      expect(stream.status).toBe(200);
      await stream.next('ready');
      const staff = await registerStaff(t.app);
      expect((await staff.client.request('PATCH', `/api/admin/products/${work.id}`, { body: { status: 'published' } })).statusCode).toBe(200);
      // From the answer to the publication, the event must arrive within 2 s.
      const event = await stream.next('new_work', 2000);
      expect(event.data).toMatchObject({ kind: 'new_work' });
      const bell = (await fan.client.get('/api/notifications')).json().payload;
      expect(bell[0]).toMatchObject({ id: event.data.notificationId, kind: 'new_work', link: `/products/${work.slug}` });
    } finally {
      stream.close();
    }
  });
});
