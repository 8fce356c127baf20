import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, signIn } from '../test/accounts';
import { createTestApp, type TestApp } from '../test/test-app';
import { ConfigError, loadConfig, parseTrustProxy } from './config';
import { setSetting } from './lib/settings';

/**
 * TRUST_PROXY behind a real (small) reverse proxy: it appends the client's address to
 * X-Forwarded-For, as nginx's `proxy_add_x_forwarded_for` does. Clients come from different
 * loopback addresses (127.0.0.0/8 is all this machine), so the app can tell them apart only
 * through the header (127.1.0.x: the test clients of test-app.ts inject from 127.0.x.x).
 */
function startProxy(upstreamPort: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress?.replace(/^::ffff:/, '')].filter(Boolean).join(', ');
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as AddressInfo).port, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}

type Answer = { status: number; cookies: string[]; body: { status?: string; message?: string } };

/** A browser on its own address: keeps its cookies and sends the XSRF token, over real connections. */
class Browser {
  private readonly jar = new Map<string, string>();
  constructor(
    private readonly port: number,
    readonly address: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private send(method: string, path: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { ...this.extraHeaders, cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (payload) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, localAddress: this.address, method, path, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
          for (const line of cookies) {
            const [pair = ''] = line.split(';');
            const at = pair.indexOf('=');
            this.jar.set(pair.slice(0, at), pair.slice(at + 1));
          }
          resolve({ status: res.statusCode ?? 0, cookies, body: text ? JSON.parse(text) : {} });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async signIn(username: string, password: string) {
    if (!this.jar.has('XSRF-TOKEN')) await this.send('GET', '/sanctum/csrf-cookie');
    return this.send('POST', '/api/login', { username, password });
  }
}

let trusted: TestApp;
let untrusted: TestApp;
/** Trusts only the proxy's address (TRUST_PROXY as a range), so it may also be reached directly. */
let ranged: TestApp;
const proxies: { port: number; close: () => Promise<void> }[] = [];
let trustedProxy: number;
let untrustedProxy: number;
let rangedProxy: number;
let rangedDirect: number;

beforeAll(async () => {
  [trusted, untrusted, ranged] = await Promise.all([
    createTestApp({ env: { TRUST_PROXY: '1' } }),
    createTestApp(),
    createTestApp({ env: { TRUST_PROXY: '127.0.0.1/32' } }),
  ]);
  for (const t of [trusted, untrusted, ranged]) {
    await setSetting(t.app.db, 'is_reg_enabled', true);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  }
  const a = await startProxy((trusted.app.server.address() as AddressInfo).port);
  const b = await startProxy((untrusted.app.server.address() as AddressInfo).port);
  rangedDirect = (ranged.app.server.address() as AddressInfo).port;
  const c = await startProxy(rangedDirect);
  proxies.push(a, b, c);
  trustedProxy = a.port;
  untrustedProxy = b.port;
  rangedProxy = c.port;
}, 120_000);
afterAll(async () => {
  for (const p of proxies) await p.close();
  await trusted?.close();
  await untrusted?.close();
  await ranged?.close();
});

/** 21 failed sign-ins on made-up accounts: more than the 20 one address may make in a minute. */
async function guessAway(browser: Browser) {
  const answers: number[] = [];
  for (let i = 0; i < 21; i++) answers.push((await browser.signIn(`nobody${i}.${Date.now()}@example.com`, 'wrong-password-1')).status);
  return answers;
}

describe('hole 11: TRUST_PROXY', () => {
  it('hole 11: is a number of hops or a list of addresses and CIDR ranges, and anything else stops the start', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    // Trusting every address would let a client write its own address (issue 29): such a value stops the start.
    for (const everyone of ['true', '0.0.0.0/0', '::/0', '10.0.0.1, 0.0.0.0/0']) {
      expect(parseTrustProxy(everyone)).toEqual({ problem: expect.stringContaining('would trust every address') });
      expect(() => loadConfig({ DATA_DIR: '/tmp/atelier-proxy-config', TRUST_PROXY: everyone })).toThrow(/TRUST_PROXY: .*would trust every address/);
    }
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,fd00::/8,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
    expect(() => loadConfig({ DATA_DIR: '/tmp/atelier-proxy-config', TRUST_PROXY: 'nginx' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: '/tmp/atelier-proxy-config', TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /TRUST_PROXY: must be false, a number of proxy hops/,
    );
  });

  it('issue 29: a production start at an https address without TRUST_PROXY warns once, naming it and what it changes', () => {
    const production = {
      DATA_DIR: '/tmp/atelier-proxy-config',
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SESSION_SECRET: 'x'.repeat(40),
    };
    const warned = loadConfig({ ...production, PUBLIC_URL: 'https://atelier.example' }).warnings.filter((w) => w.includes('TRUST_PROXY'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/sign-in limits/);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://atelier.example', TRUST_PROXY: '1' }).warnings.filter((w) => w.includes('TRUST_PROXY'))).toEqual(
      [],
    );
    expect(loadConfig({ ...production, PUBLIC_URL: 'http://atelier.example' }).warnings.filter((w) => w.includes('TRUST_PROXY'))).toEqual([]);
  });

  it('hole 11: behind a trusted proxy one client guessing passwords is limited, and staff on another address still sign in', async () => {
    const staff = await registerPerson(trusted.app);
    const attacker = new Browser(trustedProxy, '127.1.0.2');
    const answers = await guessAway(attacker);
    expect(answers.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(answers[20]).toBe(429);
    // Writing another address into X-Forwarded-For does not help: the proxy appends the real one, which is read.
    const spoofing = new Browser(trustedProxy, '127.1.0.2', { 'x-forwarded-for': '198.51.100.7' });
    expect((await spoofing.signIn(`nobody.${Date.now()}@example.com`, 'wrong-password-1')).status).toBe(429);

    const colleague = new Browser(trustedProxy, '127.1.0.3');
    const signedIn = await colleague.signIn(staff.email, staff.password);
    expect(signedIn.status).toBe(200);
  });

  it('hole 11: without TRUST_PROXY the forwarded address is ignored: every visitor of the proxy is the proxy', async () => {
    const staff = await registerPerson(untrusted.app);
    const answers = await guessAway(new Browser(untrustedProxy, '127.1.0.4'));
    expect(answers[20]).toBe(429);
    // Through that proxy everyone shares one address: this is what TRUST_PROXY is for.
    expect((await new Browser(untrustedProxy, '127.1.0.5').signIn(staff.email, staff.password)).status).toBe(429);
  });

  it('hole 11: with TRUST_PROXY naming the proxy, its clients are told apart and a direct client cannot choose its address', async () => {
    const staff = await registerPerson(ranged.app);
    expect((await guessAway(new Browser(rangedProxy, '127.1.0.8')))[20]).toBe(429);
    expect((await new Browser(rangedProxy, '127.1.0.9').signIn(staff.email, staff.password)).status).toBe(200);
    // Straight to the app, not from the proxy's address: X-Forwarded-For is only a claim, and ignored.
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) {
      const direct = new Browser(rangedDirect, '127.1.0.6', { 'x-forwarded-for': `198.51.100.${i + 1}` });
      answers.push((await direct.signIn(`nobody${i}.${Date.now()}@example.com`, 'wrong-password-1')).status);
    }
    expect(answers[20]).toBe(429);
  });

  it('hole 11: a successful sign-in is never counted as a failure: six in a minute are fine, and guesses are still limited', async () => {
    const person = await registerPerson(trusted.app);
    for (let i = 0; i < 6; i++) {
      // A new browser each time: no device cookie to excuse it from the per-account limit.
      const { res } = await signIn(trusted.app, person.email, person.password);
      expect(res.statusCode, `sign-in ${i + 1}: ${res.body}`).toBe(200);
    }
    const guesser = new Browser(trustedProxy, '127.1.0.7');
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) wrong.push((await guesser.signIn(person.email, 'not-the-password-1')).status);
    expect(wrong).toEqual([422, 422, 422, 422, 422, 429]);
  });
});
