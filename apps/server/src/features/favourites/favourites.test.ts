import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { products } from '../../db/schema';

const t = useTestApp({ seed: true });

describe('favourites', () => {
  it('a heart adds and removes; the list has the catalogue shape and is the user’s own', async () => {
    const [a, b] = await seededProducts(t.app, 'image');
    expect((await new TestClient(t.app).post(`/api/favourites/${a!.id}`)).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/favourites')).statusCode).toBe(401);

    const me = await registerPerson(t.app);
    const added = await me.client.post(`/api/favourites/${a!.id}`);
    expect(added.statusCode).toBe(200);
    expect(added.json().payload).toEqual({ product_id: a!.id, favourite: true });
    expect((await me.client.post(`/api/favourites/${a!.id}`)).statusCode).toBe(200);
    await me.client.post(`/api/favourites/${b!.id}`);

    const list = (await me.client.get('/api/favourites')).json();
    expect(list.status).toBe('OK');
    expect(list.meta).toMatchObject({ total: 2, page: 1 });
    expect(list.payload.map((p: { id: number }) => p.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(list.payload[0]).toHaveProperty('rating_average');
    expect(list.payload[0]).toHaveProperty('price');
    expect((await me.client.get('/api/favourites/ids')).json().payload.sort()).toEqual([a!.id, b!.id].sort());
    // The catalogue's page and limit rules, word for word.
    const bad = (await me.client.get('/api/favourites?page=0&limit=2.5')).json();
    expect(bad.errors).toMatchObject({ page: ['The page must be a whole number from 1.'], limit: ['The limit must be a whole number from 1 to 48.'] });

    // Someone else sees only their own (empty) list, and cannot remove mine.
    const other = await registerPerson(t.app);
    expect((await other.client.get('/api/favourites')).json().meta.total).toBe(0);
    await other.client.delete(`/api/favourites/${a!.id}`);
    expect((await me.client.get('/api/favourites')).json().meta.total).toBe(2);

    const removed = await me.client.delete(`/api/favourites/${a!.id}`);
    expect(removed.json().payload).toEqual({ product_id: a!.id, favourite: false });
    expect((await me.client.get('/api/favourites/ids')).json().payload).toEqual([b!.id]);
  });

  it('a missing or unpublished product cannot be a favourite; a hidden one leaves the list', async () => {
    const me = await registerPerson(t.app);
    expect((await me.client.post('/api/favourites/99999999')).statusCode).toBe(404);
    expect((await me.client.post('/api/favourites/abc')).statusCode).toBe(422);
    const [, , c] = await seededProducts(t.app, 'image');
    await me.client.post(`/api/favourites/${c!.id}`);
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, c!.id));
    expect((await me.client.get('/api/favourites')).json().meta.total).toBe(0);
    expect((await me.client.post(`/api/favourites/${c!.id}`)).statusCode).toBe(404);
  });
});
