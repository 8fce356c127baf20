import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { products } from '../../db/schema';

const t = useTestApp({ seed: true });

type Card = { id: number; authorNickname: string; product_type: string; tags: string[] };

describe('GET /api/products/{slug}/related', () => {
  it("gives the creator's other works and similar works of the same type, sharing tags first", async () => {
    const [image] = await seededProducts(t.app, 'image');
    const res = await new TestClient(t.app).get(`/api/products/${image!.slug}/related`);
    expect(res.statusCode).toBe(200);
    const { more_from: moreFrom, similar } = res.json().payload as { more_from: Card[]; similar: Card[] };
    const info = (await new TestClient(t.app).get(`/api/products/${image!.slug}/info`)).json().payload as Card;
    expect(moreFrom.length).toBeGreaterThan(0);
    expect(moreFrom.length).toBeLessThanOrEqual(8);
    expect(moreFrom.every((p) => p.authorNickname === info.authorNickname && p.id !== image!.id)).toBe(true);
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.every((p) => p.product_type === 'image' && p.id !== image!.id)).toBe(true);
    const sharedTags = (p: Card) => p.tags.filter((tag) => info.tags.includes(tag)).length;
    const counts = similar.map(sharedTags);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('leaves out hidden works and answers 404 for a missing product', async () => {
    const [a, b] = await seededProducts(t.app, 'image');
    await t.app.db.update(products).set({ status: 'hidden' }).where(eq(products.id, b!.id));
    const { more_from: moreFrom, similar } = (await new TestClient(t.app).get(`/api/products/${a!.id}/related`)).json().payload as {
      more_from: Card[];
      similar: Card[];
    };
    expect([...moreFrom, ...similar].some((p) => p.id === b!.id)).toBe(false);
    expect((await new TestClient(t.app).get('/api/products/no-such-work/related')).statusCode).toBe(404);
  });
});
