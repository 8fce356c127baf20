import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, signIn } from '../test/accounts';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { createTestApps, type TestApp, TestClient } from '../test/test-app';

/** Two app servers on one database and one bucket, as behind a load balancer. */
let s3: TestS3Server;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  s3 = await startS3Server();
  const apps = await createTestApps(2, { seed: true, env: { STORAGE_URL: s3.storageUrl('shared') } });
  a = apps[0]!;
  b = apps[1]!;
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await s3?.close();
});

/** The same browser (cookies, address) talking to whichever server the balancer picks. */
function sameBrowserOn(client: TestClient, app: TestApp) {
  const other = new TestClient(app.app);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  Object.defineProperty(other, 'ip', { value: client.ip });
  return other;
}

async function catalogSlugs(app: TestApp, search = '') {
  const res = await app.app.inject({ url: `/api/products/catalog?limit=48${search ? `&search=${search}` : ''}` });
  return (res.json().payload as { slug: string; price: number }[]).map((p) => ({ slug: p.slug, price: p.price }));
}

/** A change through one server shows on the other within 2 s: far less than the 5 s the catalogue cache keeps an answer. */
const within2s = { timeout: 2000, interval: 20 };

describe('two app servers on one PostgreSQL', () => {
  it('a session made on one server is valid on the other', async () => {
    const { client, person } = await registerUser(a.app);
    const onB = sameBrowserOn(client, b);
    const profile = await onB.get('/api/user/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().payload.email).toBe(person.email);
    // And a state-changing call on B passes the CSRF check with the token A handed out.
    expect((await onB.post('/api/logout')).statusCode).toBe(200);
  });

  it('the login rate limit counts attempts on both servers together', async () => {
    const { person } = await registerUser(a.app);
    const browser = new TestClient(a.app);
    await browser.csrf();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 === 0 ? browser : sameBrowserOn(browser, b);
      statuses.push((await target.post('/api/login', { username: person.email, password: `wrong-${i}-password` })).statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it('a product hidden or repriced through one server changes in the other server’s catalogue at once', async () => {
    const admin = (await signIn(a.app, 'admin@example.com', 'atelier-demo')).client;
    const before = await catalogSlugs(b);
    const target = before[0]!;
    // B has the list in its cache now; a change through A must still show on B at once.
    expect(await catalogSlugs(b)).toEqual(before);
    const detail = (await b.app.inject({ url: `/api/products/${target.slug}/info` })).json().payload;

    const repriced = await admin.request('PATCH', `/api/admin/products/${detail.id}`, { body: { price: 123.45 } });
    expect(repriced.statusCode).toBe(200);
    await expect.poll(async () => (await catalogSlugs(b)).find((p) => p.slug === target.slug)?.price, within2s).toBe(123.45);

    const hidden = await admin.request('PATCH', `/api/admin/products/${detail.id}`, { body: { status: 'hidden' } });
    expect(hidden.statusCode).toBe(200);
    await expect.poll(async () => (await catalogSlugs(b)).some((p) => p.slug === target.slug), within2s).toBe(false);
    expect((await b.app.inject({ url: `/api/products/${target.slug}/info` })).statusCode).toBe(404);
  });

  it('only staff may change a product', async () => {
    const { client } = await registerUser(a.app);
    const res = await client.request('PATCH', '/api/admin/products/1', { body: { status: 'hidden' } });
    expect(res.statusCode).toBe(403);
    const guest = await new TestClient(b.app).request('PATCH', '/api/admin/products/1', { body: { status: 'hidden' } });
    expect(guest.statusCode).toBe(401);
  });

  it('a file stored through one server (S3 backend) is served by the other', async () => {
    const bytes = Buffer.from(`shared upload ${Date.now()}`);
    await a.app.storage.putPublic('uploads/shared-check.txt', bytes, { contentType: 'text/plain' });
    const res = await b.app.inject({ url: '/storage/uploads/shared-check.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    const range = await b.app.inject({ url: '/storage/uploads/shared-check.txt', headers: { range: 'bytes=0-5' } });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('shared');
  });
});
