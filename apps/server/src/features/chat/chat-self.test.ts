import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { users } from '../../db/schema';

const t = useTestApp({ seed: true });

describe('a chat with oneself (issue 18 bug 11)', () => {
  it('issue 18 bug 11: the creator contacting themself about their own work or profile gets a clear 422, and no chat opens', async () => {
    for (const type of ['image', 'pack'] as const) {
      const [product] = await seededProducts(t.app, type);
      const [author] = await t.app.db.select().from(users).where(eq(users.id, product!.authorId));
      const { client } = await signIn(t.app, author!.email, 'atelier-demo');
      const before = (await client.get('/api/chat')).json().payload.length;

      const aboutWork = await client.post('/api/chat', { product_id: product!.id });
      expect(aboutWork.statusCode).toBe(422);
      expect(aboutWork.json()).toMatchObject({
        message: 'You cannot start a chat with yourself.',
        errors: { product_id: ['You cannot start a chat with yourself.'] },
      });
      const withSelf = await client.post('/api/chat', { recipient_id: author!.id });
      expect(withSelf.statusCode).toBe(422);
      expect(withSelf.json().errors).toEqual({ recipient_id: ['You cannot start a chat with yourself.'] });
      expect((await client.get('/api/chat')).json().payload.length).toBe(before);
    }
  });
});
