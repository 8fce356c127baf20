import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerUser } from '../../../test/accounts';
import { userIdByEmail } from '../../../test/commerce';
import { createTestApp, type TestApp, TestClient } from '../../../test/test-app';
import { auditLog, users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

async function staff() {
  const { client, person } = await registerUser(t.app);
  const id = await userIdByEmail(t.app, person.email);
  await t.app.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  return { client, id };
}

type View = { id: number; email: string; message: string; handled_at: number | null };

describe('contact messages in the back office', () => {
  it('lists open messages oldest first, replies by e-mail through the outbox, and marks them handled', async () => {
    const admin = await staff();
    const guest = new TestClient(t.app);
    const sent = await guest.post('/api/contact', { name: 'Marta', email: 'marta@example.com', message: 'Where is my download link?\nOrder 12.' });
    expect(sent.statusCode).toBe(200);
    await guest.post('/api/contact', { name: 'Jon', email: 'jon@example.com', message: 'Do you sell printed copies?' });

    const open = (await admin.client.get('/api/admin/messages')).json().payload as View[];
    expect(open.map((m) => m.email)).toEqual(['marta@example.com', 'jon@example.com']);
    const marta = open[0]!;
    expect(marta.handled_at).toBeNull();

    const noText = await admin.client.post(`/api/admin/messages/${marta.id}/reply`, { subject: 'Your order' });
    expect(noText.statusCode).toBe(422);
    expect(noText.json().errors.text).toBeDefined();

    const reply = await admin.client.post(`/api/admin/messages/${marta.id}/reply`, { subject: 'Your order', text: 'It is in your order history now.' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().payload.handled_at).not.toBeNull();
    const mail = await lastMailTo(t.app, 'marta@example.com');
    expect(mail?.subject).toBe('Your order');
    expect(mail?.text).toContain('It is in your order history now.');
    expect(mail?.text).toContain('> Where is my download link?\n> Order 12.');

    const jon = open[1]!;
    expect((await admin.client.post(`/api/admin/messages/${jon.id}/handled`, { handled: true })).json().payload.handled_at).not.toBeNull();
    expect((await admin.client.get('/api/admin/messages')).json().payload).toEqual([]);
    expect(((await admin.client.get('/api/admin/messages?status=handled')).json().payload as View[]).map((m) => m.email)).toEqual([
      'jon@example.com',
      'marta@example.com',
    ]);
    expect((await admin.client.post(`/api/admin/messages/${jon.id}/handled`, { handled: false })).json().payload.handled_at).toBeNull();
    expect((await admin.client.post('/api/admin/messages/999999/handled', { handled: true })).statusCode).toBe(404);

    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'contact_message'));
    expect(rows.map((r) => [r.action, r.subjectId, r.staffId])).toEqual([
      ['contact_message.reply', marta.id, admin.id],
      ['contact_message.handled', jon.id, admin.id],
      ['contact_message.reopened', jon.id, admin.id],
    ]);
  });
});
