import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff, signIn } from '../../../test/accounts';
import { fund } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { auditLog, sessions } from '../../db/schema';

const t = useTestApp({ seed: true });

const person = () => registerPerson(t.app);

const staff = () => registerStaff(t.app);

describe('users in the back office', () => {
  it('finds users by e-mail, nickname or id, and shows one with balance, journal, orders and offers', async () => {
    const admin = await staff();
    const a = await person();
    await fund(t.app, a.id, 2500);
    const found = (await admin.client.get(`/api/admin/users?q=${encodeURIComponent(a.email)}`)).json().payload as { id: number; email: string }[];
    expect(found.map((u) => u.id)).toEqual([a.id]);
    expect(((await admin.client.get(`/api/admin/users?q=${a.id}`)).json().payload as { id: number }[]).map((u) => u.id)).toContain(a.id);
    expect((await admin.client.get('/api/admin/users?q=%25%25nobody%25%25')).json().payload).toEqual([]);

    const detail = (await admin.client.get(`/api/admin/users/${a.id}`)).json().payload;
    expect(detail.user).toMatchObject({ id: a.id, email: a.email, role: 'user', blocked: false });
    expect(detail.balance_minor).toBe(2500);
    expect(detail.journal).toEqual([expect.objectContaining({ reason: 'test funding', amount_minor: 2500 })]);
    expect(detail.orders).toEqual([]);
    expect(detail.offers).toEqual([]);
    expect((await admin.client.get('/api/admin/users/999999')).statusCode).toBe(404);
  });

  it('blocking ends every session at once (the next call says the account is blocked) and sign-in is refused with a clear message', async () => {
    const admin = await staff();
    const a = await person();
    const second = await signIn(t.app, a.email, a.password);
    expect(second.res.statusCode).toBe(200);
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);

    const res = await admin.client.post(`/api/admin/users/${a.id}/block`, { reason: 'Spam in chats.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.blocked).toBe(true);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.userId, a.id))).toEqual([]);
    // Both browsers the user was signed in with are signed out, and told why, on their next call.
    const told = await a.client.get('/api/user/profile');
    expect(told.statusCode).toBe(403);
    // Issue 31: the web app knows the blocked screen by the code, not by the English.
    expect(told.json().code).toBe('account.blocked');
    expect((await second.client.get('/api/balance')).statusCode).toBe(403);
    expect((await a.client.get('/api/is-auth')).json().payload.authenticated).toBe(false);

    const again = await signIn(t.app, a.email, a.password);
    expect(again.res.statusCode).toBe(403);
    expect(again.res.json()).toEqual({
      status: 'ERROR',
      message: 'Your account is blocked. Please contact support if you think this is a mistake.',
      code: 'account.blocked',
    });
    // A wrong password still gets the ordinary answer: the block is told only to the owner.
    expect((await signIn(t.app, a.email, 'wrong-password-1')).res.statusCode).toBe(422);

    const unblock = await admin.client.post(`/api/admin/users/${a.id}/unblock`);
    expect(unblock.json().payload.blocked).toBe(false);
    const back = await signIn(t.app, a.email, a.password);
    expect(back.res.statusCode).toBe(200);
    expect((await back.client.get('/api/user/profile')).statusCode).toBe(200);

    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, a.id));
    expect(rows.map((r) => [r.action, r.subjectType, r.staffId])).toEqual([
      ['user.block', 'user', admin.id],
      ['user.unblock', 'user', admin.id],
    ]);
    expect(rows[0]!.before).toEqual({ blocked: false });
    expect(rows[0]!.after).toEqual({ blocked: true, reason: 'Spam in chats.' });
    expect((await admin.client.post(`/api/admin/users/${admin.id}/block`, { reason: 'Test.' })).statusCode).toBe(409);
  });

  it('grants and revokes the staff role; nobody revokes their own', async () => {
    const admin = await staff();
    const a = await person();
    expect((await a.client.get('/api/admin/users')).statusCode).toBe(403);
    const grant = await admin.client.post(`/api/admin/users/${a.id}/role`, { role: 'admin' });
    expect(grant.statusCode).toBe(200);
    expect(grant.json().payload.role).toBe('admin');
    expect((await a.client.get('/api/admin/users')).statusCode).toBe(200);

    const self = await a.client.post(`/api/admin/users/${a.id}/role`, { role: 'user' });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot revoke your own staff role.');
    expect((await a.client.get('/api/admin/users')).statusCode).toBe(200);

    // The new staff member revokes the one who granted it (staff may revoke each other).
    expect((await a.client.post(`/api/admin/users/${admin.id}/role`, { role: 'user' })).json().payload.role).toBe('user');
    expect((await admin.client.get('/api/admin/users')).statusCode).toBe(403);
    expect((await a.client.post(`/api/admin/users/${a.id}/role`, { role: 'owner' })).statusCode).toBe(422);

    const actions = (await a.client.get(`/api/admin/audit?subject=user:${admin.id}`)).json().payload as { action: string; staff: { id: number } }[];
    expect(actions.map((x) => [x.action, x.staff.id])).toEqual([['user.revoke_staff', a.id]]);
  });
});
