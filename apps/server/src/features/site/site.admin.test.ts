import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, registerStaff } from '../../../test/accounts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

const t = useTestApp({ seed: true });

const staff = () => registerStaff(t.app);

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

  it('reads and changes the site settings, checks their bounds, takes effect at once and is audited', async () => {
    const admin = await staff();
    const before = (await admin.client.get('/api/admin/settings')).json().payload;
    expect(before).toMatchObject({ commission_percent: expect.any(Number), deposit_min: expect.any(Number), is_reg_enabled: true });

    const res = await admin.client.request('PATCH', '/api/admin/settings', {
      body: { internal_currency_name: 'Studio Coins', commission_percent: 25, generation_price: 1.5 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ internal_currency_name: 'Studio Coins', commission_percent: 25, generation_price: 1.5 });
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json().payload.internal_currency_name).toBe('Studio Coins');

    const bad = await admin.client.request('PATCH', '/api/admin/settings', { body: { deposit_min: 2000 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.deposit_min).toEqual(['The smallest deposit may not be above the largest.']);
    expect((await admin.client.request('PATCH', '/api/admin/settings', { body: { commission_percent: 120 } })).json().errors.commission_percent).toBeDefined();
    expect((await admin.client.request('PATCH', '/api/admin/settings', { body: {} })).statusCode).toBe(422);
    expect((await admin.client.get('/api/admin/settings')).json().payload.deposit_min).toBe(before.deposit_min);

    // Registration closed by staff closes it for visitors at once.
    expect((await admin.client.request('PATCH', '/api/admin/settings', { body: { is_reg_enabled: false } })).statusCode).toBe(200);
    const closed = await new TestClient(t.app).post('/api/register', {
      name: 'A',
      surname: 'B',
      email: 'late@example.com',
      phone: '+351912345678',
      password: 'violet-harbour-42',
      passConfirm: 'violet-harbour-42',
      terms_agreed: true,
    });
    expect(closed.statusCode).toBe(403);
    await admin.client.request('PATCH', '/api/admin/settings', { body: { is_reg_enabled: true } });

    const log = (await admin.client.get('/api/admin/audit?subject=settings')).json().payload as { action: string; before: unknown; after: unknown }[];
    expect(log.at(-1)).toMatchObject({
      action: 'settings.update',
      before: { internal_currency_name: before.internal_currency_name, commission_percent: before.commission_percent },
      after: { internal_currency_name: 'Studio Coins', commission_percent: 25, generation_price: 1.5 },
    });
    expect(log).toHaveLength(3);
  });
});

describe('the support e-mail setting (issue 29)', () => {
  it('must be an e-mail address: anything else is a 422 naming the field, and the saved address stays', async () => {
    const admin = await staff();
    const saved = await admin.client.request('PATCH', '/api/admin/settings', { body: { support_email: '  help@atelier.example ' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload.support_email).toBe('help@atelier.example');
    for (const value of ['not an address', 'help@', '@atelier.example', 'a b@atelier.example', '', 'javascript:alert(1)', 42]) {
      const res = await admin.client.request('PATCH', '/api/admin/settings', { body: { support_email: value } });
      expect(res.statusCode, String(value)).toBe(422);
      expect(res.json().errors.support_email[0], String(value)).toMatch(/support e-mail/);
    }
    expect((await admin.client.get('/api/admin/settings')).json().payload.support_email).toBe('help@atelier.example');
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json().payload.support_email).toBe('help@atelier.example');
  });
});

describe('settings that look like JSON', () => {
  it('hole 10: a copyright saved as "2026", "true", "null", "{}" or "[1]" comes back as that text, and the site and back office keep answering', async () => {
    const admin = await staff();
    for (const value of ['2026', 'true', 'null', '{}', '[1]']) {
      const saved = await admin.client.request('PATCH', '/api/admin/settings', { body: { copyright: value } });
      expect(saved.statusCode, value).toBe(200);
      expect(saved.json().payload.copyright).toBe(value);

      const site = await t.app.inject({ method: 'GET', url: '/api/settings' });
      expect(site.statusCode, value).toBe(200);
      expect(site.json().payload.copyright).toBe(value);

      const office = await admin.client.get('/api/admin/settings');
      expect(office.statusCode, value).toBe(200);
      expect(office.json().payload.copyright).toBe(value);
    }
  });
});
