import { describe, expect, it } from 'vitest';
import { TestClient, useTestApp } from '../test/test-app';

const t = useTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });

function expectNoInternals(body: string) {
  expect(body).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(body).not.toMatch(/stack|node_modules|SELECT |INSERT |FST_/i);
}

describe('wire contract (SPEC §5, §7, §8)', () => {
  it('answers liveness and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json().status).toBe('OK');
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'OK', payload: { database: 'up' } });
  });

  it('hands out a readable XSRF-TOKEN and an httpOnly session cookie', async () => {
    const res = await t.app.inject({ url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    const session = res.cookies.find((c) => c.name === 'atelier_session');
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
  });

  it('refuses a state-changing call without the XSRF token with 419', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'A', email: 'a@b.co', message: 'hello there!' } });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'CSRF token mismatch. Reload the page and try again.', code: 'request.csrf_mismatch' });
  });

  it('refuses a wrong XSRF token with 419', async () => {
    const c = new TestClient(t.app);
    await c.csrf();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { cookie: c.cookieHeader, 'x-xsrf-token': 'forged' },
      payload: { name: 'A', email: 'a@b.co', message: 'hello there!' },
    });
    expect(res.statusCode).toBe(419);
  });

  it('accepts a valid call and stores it', async () => {
    const c = new TestClient(t.app);
    const res = await c.post('/api/contact', { name: 'Ana', email: 'ana@example.com', message: 'I would like a custom print.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('OK');
    expect(res.json().message).toMatch(/Thank you/);
  });

  it('answers malformed JSON with 400 in the envelope', async () => {
    const c = new TestClient(t.app);
    const res = await c.request('POST', '/api/contact', { payload: '{"name": "Ana",', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'The request body is not valid JSON.' });
    expectNoInternals(res.body);
  });

  it('answers a path with a broken %-escape with 400 in the envelope, for pages and the API alike', async () => {
    for (const url of ['/products/%E0%A4%A', '/api/products/%E0%A4%A/info']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ status: 'ERROR', message: 'This address is not valid: check the link for a broken %-escape.' });
    }
  });

  it('answers a wrong field type with 422 and per-field messages', async () => {
    const c = new TestClient(t.app);
    const res = await c.post('/api/contact', { name: 42, email: 'not-an-email', message: 'short' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.status).toBe('ERROR');
    expect(body.errors.name[0]).toBe('Please enter your name.');
    expect(body.errors.email[0]).toBe('Please enter a valid e-mail address.');
    expect(body.errors.message[0]).toBe('The message must have at least 10 characters.');
    expectNoInternals(res.body);
  });

  it('names a missing field', async () => {
    const c = new TestClient(t.app);
    const res = await c.post('/api/contact', { email: 'ana@example.com', message: 'A long enough message.' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name[0]).toBe('Please enter your name.');
  });

  it('answers an oversized body with 413 in the envelope', async () => {
    const c = new TestClient(t.app);
    const res = await c.post('/api/contact', { name: 'Ana', email: 'ana@example.com', message: 'x'.repeat(10_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'The request body is too large.' });
  });

  it('answers an unknown /api path with 404 in the envelope', async () => {
    const res = await t.app.inject({ url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'No API endpoint answers GET /api/no-such-thing.' });
    // No route matched, so nothing runs that a forged request could use: a plain 404.
    const post = await t.app.inject({ method: 'POST', url: '/api/nope', headers: { 'x-xsrf-token': 'x' } });
    expect(post.statusCode).toBe(404);
  });

  it('answers any other path 404 with the app page, which shows its not-found page there (issue 18 bug 9)', async () => {
    const res = await t.app.inject({ url: '/some/unknown/page', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('never serves private files under /storage', async () => {
    await t.app.storage.putPrivate('products/x/original.txt', Buffer.from('PAID CONTENT'));
    await t.app.storage.putPublic('products/x/preview.txt', Buffer.from('preview'));
    expect((await t.app.inject({ url: '/storage/products/x/preview.txt' })).body).toBe('preview');
    for (const url of [
      '/storage/../private/products/x/original.txt',
      '/storage/..%2fprivate/products/x/original.txt',
      '/storage/%2e%2e/private/products/x/original.txt',
      '/storage/private/products/x/original.txt',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.body).not.toContain('PAID CONTENT');
    }
    expect((await t.app.inject({ url: '/storage/products/x/missing.png' })).statusCode).toBe(404);
  });

  it('publishes an OpenAPI 3.1 document of the routes and a docs page', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    // Paths are the full addresses (the web client's generated types use them as they are), health included.
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/settings', '/api/contact', '/api/is-auth', '/healthz', '/readyz']));
    const docs = await t.app.inject({ url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('tells a guest that nobody is signed in', async () => {
    expect((await t.app.inject({ url: '/api/is-auth' })).json()).toEqual({ status: 'OK', payload: { authenticated: false } });
  });

  it('echoes a request id', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'req-12345678' } });
    expect(res.headers['x-request-id']).toBe('req-12345678');
  });
});

describe('contact form', () => {
  it('limits how many messages one address sends', async () => {
    const c = new TestClient(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await c.request('POST', '/api/contact', {
        body: { name: 'Spam', email: 'spam@example.com', message: 'Buy my stuff now please.' },
        headers: { 'x-forwarded-for': '10.0.0.9' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().message).toMatch(/Please try again in/);
        expect(res.headers['retry-after']).toBeDefined();
      }
    }
    expect(statuses).toContain(429);
  });
});

describe('compression', () => {
  it('compresses a large JSON answer for a client that accepts it, and not for one that does not', async () => {
    const { gunzipSync } = await import('node:zlib');
    const zipped = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString()).openapi).toBe('3.1.0');
    const raw = await t.app.inject({ url: '/api/openapi.json' });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.json().openapi).toBe('3.1.0');
  });
});
