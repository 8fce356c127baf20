import { describe, expect, it } from 'vitest';
import { registerUser } from '../test/accounts';
import { TestClient, useTestApp } from '../test/test-app';

/**
 * Every back-office route, read from the OpenAPI document (so a route added later joins in at once),
 * answers 401 to a guest and 403 to a signed-in user who is not staff, whatever it is sent.
 */
const t = useTestApp({ seed: true });

type Operation = { parameters?: { in: string; name: string }[] };

async function adminRoutes(): Promise<{ method: string; url: string }[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
  const out: { method: string; url: string }[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    // The document names whole addresses (its server is `/`).
    const full = path;
    if (!full.startsWith('/api/admin/')) continue;
    for (const method of Object.keys(operations)) out.push({ method: method.toUpperCase(), url: full.replace(/\{[^}]+\}/g, '1') });
  }
  return out;
}

describe('back office access', () => {
  it('every /api/admin route answers 401 to a guest and 403 to a user who is not staff', async () => {
    const routes = await adminRoutes();
    // The walk covers at least the screens built so far (review, payouts, money, users, audit, products).
    for (const expected of [
      'GET /api/admin/offers',
      'POST /api/admin/offers/1/counter',
      'POST /api/admin/payouts/1/complete',
      'GET /api/admin/ledger/reconciliation',
      'POST /api/admin/ledger/adjustments',
      'GET /api/admin/audit',
      'POST /api/admin/users/1/block',
      'POST /api/admin/users/1/role',
      'PATCH /api/admin/products/1',
      'POST /api/admin/messages/1/reply',
      'POST /api/admin/packs',
      'PUT /api/admin/packs/1/items',
      'PATCH /api/admin/settings',
      'PUT /api/admin/static-pages/1',
      'PUT /api/admin/currencies/1',
      'GET /api/admin/jobs',
      'POST /api/admin/jobs/1/retry',
      'GET /api/admin/disputes',
      'GET /api/admin/receivables',
      'GET /api/admin/analytics',
      'GET /api/admin/analytics.csv',
      // Platform discount codes (issue 34).
      'GET /api/admin/discounts',
      'POST /api/admin/discounts',
      'PATCH /api/admin/discounts/1',
      'DELETE /api/admin/discounts/1',
    ]) {
      expect(routes.map((r) => `${r.method} ${r.url}`)).toContain(expected);
    }
    const guest = new TestClient(t.app);
    const { client: user } = await registerUser(t.app);
    for (const { method, url } of routes) {
      const asGuest = await guest.request(method as 'GET', url, { body: {} });
      expect(asGuest.statusCode, `${method} ${url} as a guest`).toBe(401);
      expect(asGuest.json().status).toBe('ERROR');
      const asUser = await user.request(method as 'GET', url, { body: {} });
      expect(asUser.statusCode, `${method} ${url} as a user`).toBe(403);
      expect(asUser.json().message).toBe('This action is for moderators only.');
    }
  });
});
