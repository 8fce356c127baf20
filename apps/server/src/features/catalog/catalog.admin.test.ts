import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { registerStaff } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

const t = useTestApp({ seed: true });

const staff = () => registerStaff(t.app);

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
    // The shop's cached answers are dropped when PostgreSQL's change notice arrives, a moment after the commit.
    const shopSees = (status: number) => vi.waitFor(async () => expect((await publicInfo()).statusCode).toBe(status), { timeout: 3000, interval: 50 });
    expect((await publicInfo()).statusCode).toBe(200);
    const hide = await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { status: 'hidden' } });
    expect(hide.json().payload.status).toBe('hidden');
    await shopSees(404);
    expect(((await admin.client.get('/api/admin/products?status=hidden')).json().payload as Row[]).map((p) => p.id)).toEqual([product!.id]);
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { status: 'published' } })).statusCode).toBe(200);
    await shopSees(200);

    const edit = await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, {
      body: { title: 'Fjord at noon', description: 'Bright and clear.', price: 12, tags: ['fjord'] },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().payload).toMatchObject({ title: 'Fjord at noon', description: 'Bright and clear.', price_minor: 1200, tags: ['fjord'] });
    await vi.waitFor(async () => expect((await publicInfo()).json().payload.title).toBe('Fjord at noon'), { timeout: 3000, interval: 50 });
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: { title: '  ' } })).statusCode).toBe(422);
    expect((await admin.client.request('PATCH', `/api/admin/products/${product!.id}`, { body: {} })).statusCode).toBe(422);

    const log = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, product!.id));
    expect(log.map((r) => (r.after as { status: string }).status)).toEqual(['hidden', 'published', 'published']);
    expect(log[2]!.before).toMatchObject({ title: product!.title });
    expect(log[2]!.after).toMatchObject({ title: 'Fjord at noon', price_minor: 1200 });
  });

  it('builds a pack from products and edits its items; a pack holds no pack, no unknown product and no product twice', async () => {
    const admin = await staff();
    const images = await seededProducts(t.app, 'image');
    const [a, b, c] = images;
    const created = await admin.client.post('/api/admin/packs', { title: 'Northern light set', price: 19.9, product_ids: [a!.id, b!.id], status: 'published' });
    expect(created.statusCode).toBe(200);
    const pack = created.json().payload;
    expect(pack).toMatchObject({ slug: 'northern-light-set', status: 'published', price_minor: 1990, product_ids: [a!.id, b!.id] });
    const shown = await t.app.inject({ method: 'GET', url: `/api/packs/${pack.slug}/info` });
    expect(shown.statusCode).toBe(200);
    expect((shown.json().payload.items as { id: number }[]).map((i) => i.id)).toEqual([a!.id, b!.id]);
    // The same title again gets its own address.
    expect((await admin.client.post('/api/admin/packs', { title: 'Northern light set', price: 5, product_ids: [a!.id, c!.id] })).json().payload.slug).toBe(
      'northern-light-set-2',
    );

    const edit = await admin.client.request('PUT', `/api/admin/packs/${pack.id}/items`, { body: { product_ids: [c!.id, a!.id, b!.id] } });
    expect(edit.json().payload.product_ids).toEqual([c!.id, a!.id, b!.id]);
    await vi.waitFor(
      async () =>
        expect(
          ((await t.app.inject({ method: 'GET', url: `/api/packs/${pack.slug}/info` })).json().payload.items as { id: number }[]).map((i) => i.id),
        ).toEqual([c!.id, a!.id, b!.id]),
      { timeout: 3000, interval: 50 },
    );

    const refuse = async (body: unknown) => (await admin.client.request('PUT', `/api/admin/packs/${pack.id}/items`, { body })).json().errors?.product_ids?.[0];
    expect(await refuse({ product_ids: [a!.id] })).toBe('A pack holds at least 2 products.');
    expect(await refuse({ product_ids: [a!.id, a!.id] })).toBe('A product may be in a pack only once.');
    expect(await refuse({ product_ids: [a!.id, 999999] })).toBe('These products do not exist: 999999.');
    expect(await refuse({ product_ids: [a!.id, pack.id] })).toBe('A pack cannot hold itself.');
    const [seededPack] = await seededProducts(t.app, 'pack');
    expect(await refuse({ product_ids: [a!.id, seededPack!.id] })).toBe('A pack cannot hold another pack.');
    expect((await admin.client.request('PUT', `/api/admin/packs/${a!.id}/items`, { body: { product_ids: [b!.id, c!.id] } })).statusCode).toBe(409);

    const log = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectId, pack.id));
    expect(log.map((r) => r.action)).toEqual(['pack.create', 'pack.items']);
    expect(log[1]!.before).toEqual({ product_ids: [a!.id, b!.id] });
  });
});
