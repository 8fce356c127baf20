import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerStaff, signIn } from '../../../test/accounts';
import { openStream } from '../../../test/event-stream';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';
import { setSetting } from '../../lib/settings';

const t = useTestApp({ seed: true });
let base: string;
beforeAll(async () => {
  await setSetting(t.app.db, 'support_email', 'help@atelier.test');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const BLOCKED = 'Your account is blocked. Please contact support if you think this is a mistake.';

describe('blocking a user (issue 18 bug 3)', () => {
  it('issue 18 bug 3: staff must give a reason to block', async () => {
    const admin = await registerStaff(t.app);
    const a = await registerPerson(t.app);
    for (const body of [{}, { reason: '   ' }]) {
      const res = await admin.client.post(`/api/admin/users/${a.id}/block`, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.reason).toEqual(['The reason field is required.']);
    }
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);
  });

  it('issue 18 bug 3: a block ends the live stream and the sessions at once, tells the next call, and mails the reason', async () => {
    const admin = await registerStaff(t.app);
    const a = await registerPerson(t.app);
    const stream = await openStream(base, a.client);
    await stream.next('ready');

    const res = await admin.client.post(`/api/admin/users/${a.id}/block`, { reason: 'Selling stolen artwork.' });
    expect(res.statusCode).toBe(200);
    // The stream is told and closed by the server now, not at its next heartbeat.
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toContain('account_blocked');

    // The next call from that browser says the account is blocked (the web shows the blocked screen).
    const next = await a.client.get('/api/balance');
    expect(next.statusCode).toBe(403);
    expect(next.json().message).toBe(BLOCKED);
    expect((await a.client.get('/api/is-auth')).json().payload.authenticated).toBe(false);

    const [audit] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, a.id));
    expect(audit).toMatchObject({ action: 'user.block', staffId: admin.id, after: { blocked: true, reason: 'Selling stolen artwork.' } });

    const mail = await lastMailTo(t.app, a.email);
    expect(mail?.subject).toBe('Your Atelier account is blocked');
    expect(mail?.text).toContain('Reason: Selling stolen artwork.');
    expect(mail?.text).toContain('help@atelier.test');
    expect(mail?.text).toContain('/contact');

    // After an unblock, that browser is an ordinary signed-out guest, and the user signs in again.
    await admin.client.post(`/api/admin/users/${a.id}/unblock`);
    expect((await a.client.get('/api/balance')).statusCode).toBe(401);
    expect((await signIn(t.app, a.email, a.password)).res.statusCode).toBe(200);
  });
});
