import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerUser, signIn } from '../test/accounts';
import { createTestApp, TestClient, useTestApp } from '../test/test-app';
import { ConfigError, loadConfig } from './config';
import { staticPages, users } from './db/schema';
import { saveStaticPage } from './features/site/site.queries';

const t = useTestApp({ seed: true });
let base: string;
beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address() as { port: number };
  base = `127.0.0.1:${address.port}`;
});

/** Sends raw HTTP/1.1 bytes (no client library normalises the request line) and returns the answer. */
function rawRequest(text: string): Promise<string> {
  const [host, port] = base.split(':');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const loginBody = JSON.stringify({ username: 'seller@example.com', password: 'atelier-demo' });

describe('CSRF is decided per route, after routing', () => {
  it('refuses a login at /%61pi/login (the router decodes it to /api/login) without a token', async () => {
    const answer = await rawRequest(
      `POST /%61pi/login HTTP/1.1\r\nHost: ${base}\r\nContent-Type: application/json\r\nContent-Length: ${loginBody.length}\r\nConnection: close\r\n\r\n${loginBody}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 419 /);
    expect(answer).not.toMatch(/set-cookie: atelier_session/i);
  });

  it('refuses an absolute-form request line without a token', async () => {
    const body = JSON.stringify({ name: 'Eve', email: 'eve@example.com', message: 'Forged across sites.' });
    const answer = await rawRequest(
      `POST http://${base}/api/contact HTTP/1.1\r\nHost: ${base}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 (419|400) /);
  });

  it('answers a malformed X-XSRF-TOKEN with 419, not 500', async () => {
    const client = new TestClient(t.app);
    await client.csrf();
    for (const bad of ['%', '%E0%A4%A', 'x'.repeat(5000)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { cookie: client.cookieHeader, 'x-xsrf-token': bad, 'content-type': 'application/json' },
        payload: { name: 'A', email: 'a@example.com', message: 'Hello there, friend.' },
      });
      expect(res.statusCode).toBe(419);
      expect(res.json()).toEqual({ status: 'ERROR', message: 'CSRF token mismatch. Reload the page and try again.', code: 'request.csrf_mismatch' });
    }
  });
});

describe('the developer outbox', () => {
  it('answers only a request from this machine', async () => {
    const local = await t.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    const remote = await t.app.inject({ url: '/dev/mail', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('Outbox');
    // A proxy in front would make every visitor look local: a forwarded request is refused too.
    const proxied = await t.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.statusCode).toBe(404);
  });

  it('does not exist in production', async () => {
    const prod = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' } });
    try {
      const res = await prod.app.inject({ url: '/dev/mail' });
      // Whatever answers the path (the app's 404 page), it is not the outbox.
      expect(res.body).not.toContain('Outbox');
      expect(res.headers['content-type']).not.toMatch(/^text\/html.*outbox/i);
    } finally {
      await prod.close();
    }
  });
});

describe('demo data and published passwords', () => {
  it('is off for a production start and for a public address, on for a local one', () => {
    const dir = path.join(tmpdir(), 'atelier-seed-config');
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'http://127.0.0.1:8080' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('a production start has no demo account: admin@example.com / atelier-demo does not sign in', async () => {
    const { startServer } = await import('./server');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-prod-'));
    const lines: string[] = [];
    const config = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://atelier.example',
      PAYMENT_PROVIDER: 'sandbox',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '0',
    });
    const running = await startServer(config, { logStream: { write: (line) => lines.push(line) } });
    try {
      const client = new TestClient(running.app);
      const res = await client.post('/api/login', { username: 'admin@example.com', password: 'atelier-demo' });
      expect(res.statusCode).toBe(422);
      const [admin] = await running.app.db.select().from(users).where(eq(users.email, 'admin@example.com'));
      expect(admin).toBeUndefined();
      expect(lines.join('')).toContain('Atelier is serving https://atelier.example');
      expect(lines.join('')).not.toContain('atelier-demo');
      // The store itself is there: currencies and legal pages come from the base seeders.
      const pages = (await running.app.inject({ url: '/api/static-pages' })).json();
      expect(pages.payload.length).toBeGreaterThan(0);
    } finally {
      await running.shutdown('test');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the session secret', () => {
  it('refuses an empty or short DATA_DIR/session-secret with a clear message', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-secret-'));
    try {
      for (const content of ['', '   \n', 'short-secret']) {
        await writeFile(path.join(dir, 'session-secret'), content);
        let error: unknown;
        try {
          loadConfig({ DATA_DIR: dir });
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems.join('\n')).toMatch(/needs at least 32/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a DATA_DIR that is a file, with a sentence instead of a stack trace', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-datadir-'));
    const file = path.join(dir, 'not-a-folder');
    await writeFile(file, 'x');
    expect(() => loadConfig({ DATA_DIR: file })).toThrow(/is a file, not a folder/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('login rate limits hold under parallel requests', () => {
  it('150 parallel guesses at one account: at most 5 are checked, the rest get 429', async () => {
    const { person } = await registerUser(t.app);
    const client = new TestClient(t.app);
    await client.csrf();
    const guesses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => client.post('/api/login', { username: person.email, password: i === 149 ? person.password : `wrong-guess-${i}` })),
    );
    const checked = guesses.filter((r) => r.statusCode !== 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(guesses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(145);
  });

  it('60 parallel guesses across accounts from one address: at most 20 get through', async () => {
    const client = new TestClient(t.app);
    await client.csrf();
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => client.post('/api/login', { username: `someone${i}@example.com`, password: 'wrong-guess-x' })),
    );
    expect(guesses.filter((r) => r.statusCode !== 429).length).toBeLessThanOrEqual(20);
  });

  it('a stranger cannot lock the owner out of a browser the owner signed in with before', async () => {
    const { person } = await registerUser(t.app);
    const owner = await signIn(t.app, person.email, person.password);
    expect(owner.res.statusCode).toBe(200);
    await owner.client.post('/api/logout');
    // Many addresses guess at the account until it is locked for new browsers.
    for (let i = 0; i < 8; i++) await signIn(t.app, person.email, `stranger-guess-${i}`);
    const newBrowser = await signIn(t.app, person.email, person.password);
    expect(newBrowser.res.statusCode).toBe(429);
    const again = await owner.client.post('/api/login', { username: person.email, password: person.password });
    expect(again.statusCode).toBe(200);
  });
});

describe('smaller holes', () => {
  it('pages carry a Content-Security-Policy; https sites get HSTS', async () => {
    const page = await t.app.inject({ url: '/dev/mail' });
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['strict-transport-security']).toBeUndefined();
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' } });
    try {
      expect((await secure.app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await secure.close();
    }
  });

  it('the profile answer is never stored by a cache', async () => {
    const { client } = await registerUser(t.app);
    const res = await client.get('/api/user/profile');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('static page HTML is sanitized on every write, not only by the seed', async () => {
    await saveStaticPage(t.app.db, {
      slug: 'written-later',
      title: 'Later',
      content: '<p onclick="x()">Hi</p><script>alert(1)</script><a href="javascript:y()">l</a>',
    });
    const [row] = await t.app.db.select().from(staticPages).where(eq(staticPages.slug, 'written-later'));
    expect(row!.content).not.toMatch(/script|onclick|javascript:/);
    expect(row!.content).toContain('<p>Hi</p>');
  });

  it('registering while signed in is refused instead of switching accounts', async () => {
    const { client, person } = await registerUser(t.app);
    const res = await client.post('/api/register', { ...person, email: `second.${person.email}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`You are signed in as ${person.email}. Log out first to create another account.`);
    expect((await client.get('/api/user/profile')).json().payload.email).toBe(person.email);
  });

  it('trying other people’s e-mail addresses in the profile is limited', async () => {
    const { client, person } = await registerUser(t.app);
    const profile = (await client.get('/api/user/profile')).json().payload;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await client.put('/api/user/profile', {
        name: person.name,
        surname: person.surname,
        email: `probe${i}@example.com`,
        phone: person.phone,
        about_me: '',
        hourly_rate: 0,
        nickname: profile.nickname,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
  });

  it('a reset request takes the same time for a known and an unknown address', async () => {
    const { person } = await registerUser(t.app);
    const time = async (email: string) => {
      const c = new TestClient(t.app);
      await c.csrf();
      const start = performance.now();
      const res = await c.post('/api/user/reset-password', { email });
      expect(res.statusCode).toBe(200);
      return performance.now() - start;
    };
    const known = await time(person.email);
    const unknown = await time(`nobody.${person.email}`);
    expect(await lastMailTo(t.app, person.email)).toBeTruthy();
    // Both answers wait for the same fixed moment; what differs is scheduling noise, not the work done.
    expect(Math.abs(known - unknown)).toBeLessThan(60);
    expect(Math.min(known, unknown)).toBeGreaterThanOrEqual(395);
  });
});
