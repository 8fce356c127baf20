import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { seededProducts, userIdByEmail } from '../../../test/commerce';
import { createTestApp, type TestApp } from '../../../test/test-app';
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

type Row = { id: number; title: string; status: string; tags: string[]; author: { nickname: string }; description: string };

describe('catalog in the back office', () => {
  it('finds products by title or id in any status, hides and unhides them, and edits title, description, price, category and tags', async () => {
    const admin = await staff();
    const [product] = await seededProducts(t.app, 'image');
    const word = product!.title.split(' ')[0]!;
    const found = (await admin.client.get(`/api/admin/products?q=${encodeURIComponent(word)}`)).json().payload as Row[];
    expect(found.map((p) => p.id)).toContain(product!.id);
    expect(((await admin.client.get(`/api/admin/products?q=${product!.id}`)).json().payload as Row[]).map((p) => p.id)).toContain(product!.id);
    expect(((await admin.client.get('/api/admin/products?product_type=prompt')).json().payload as Row[]).length).toBeGreaterThan(0);

    const publicInfo = () => t.app.inject({ method: 'GET', url: `/api/products/${product!.id}/info` });
    expect((await publicInfo()).statusCode).toBe(200);
    const hide = await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { status: 'hidden' } });
    expect(hide.json().payload.status).toBe('hidden');
    expect((await publicInfo()).statusCode).toBe(404);
    expect(((await admin.client.get('/api/admin/products?status=hidden')).json().payload as Row[]).map((p) => p.id)).toEqual([product!.id]);
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { status: 'published' } })).statusCode).toBe(200);
    expect((await publicInfo()).statusCode).toBe(200);

    const edit = await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, {
      body: { title: 'Fjord at noon', description: 'Bright and clear.', price: 12, tags: ['fjord'] },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().payload).toMatchObject({ title: 'Fjord at noon', description: 'Bright and clear.', price_minor: 1200, tags: ['fjord'] });
    expect((await publicInfo()).json().payload.title).toBe('Fjord at noon');
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { title: '  ' } })).statusCode).toBe(422);
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: {} })).statusCode).toBe(422);

    const log = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, product!.id));
    expect(log.map((r) => (r.after as { status: string }).status)).toEqual(['hidden', 'published', 'published']);
    expect(log[2]!.before).toMatchObject({ title: product!.title });
    expect(log[2]!.after).toMatchObject({ title: 'Fjord at noon', price_minor: 1200 });
  });
});
