import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lastMailTo, linkIn, newPerson, registerPerson, registerUser, signIn } from '../../../test/accounts';
import { TestClient, useTestApp } from '../../../test/test-app';

const t = useTestApp({ seed: true });
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A browser on a controllable clock: it drops a cookie once its Max-Age has passed, as browsers do. */
class Browser {
  readonly client: TestClient;
  readonly expiry = new Map<string, number>();
  constructor() {
    this.client = new TestClient(t.app);
  }
  private dropExpired() {
    for (const [name, at] of this.expiry) if (at <= Date.now()) this.client.cookies.delete(name);
  }
  private note<R extends { cookies: { name: string; maxAge?: number }[] }>(res: R): R {
    for (const c of res.cookies) if (c.maxAge) this.expiry.set(c.name, Date.now() + c.maxAge * 1000);
    return res;
  }
  async get(url: string) {
    this.dropExpired();
    return this.note(await this.client.get(url));
  }
  async post(url: string, body?: unknown) {
    this.dropExpired();
    if (!this.client.cookies.has('XSRF-TOKEN')) this.note(await this.client.csrf());
    return this.note(await this.client.post(url, body));
  }
  async signedIn() {
    return (await this.get('/api/is-auth')).json().payload.authenticated as boolean;
  }
}

/** Moves the clock on (Date only: the database and the test runner keep their own timers). */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('sliding sessions (issue 18 bug 2)', () => {
  it('issue 18 bug 2: an active user stays signed in past 2 hours; the cookie is re-sent once the idle window is half used', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const browser = new Browser();
    expect((await browser.post('/api/register', newPerson())).statusCode).toBe(200);
    expect(browser.expiry.get('atelier_session')).toBe(Date.now() + 2 * HOUR);

    advance(30 * MINUTE);
    const early = await browser.get('/api/is-auth');
    expect(early.json().payload.authenticated).toBe(true);
    // Less than half the idle window used: nothing is re-sent.
    expect(early.cookies.map((c) => c.name)).toEqual([]);

    advance(31 * MINUTE);
    const half = await browser.get('/api/is-auth');
    expect(half.json().payload.authenticated).toBe(true);
    const resent = Object.fromEntries(half.cookies.map((c) => [c.name, c.maxAge]));
    expect(resent).toEqual({ atelier_session: 2 * 60 * 60, 'XSRF-TOKEN': 2 * 60 * 60 });

    // Working on, a call every 40 minutes, for 8 hours: never signed out.
    for (let i = 0; i < 12; i++) {
      advance(40 * MINUTE);
      expect(await browser.signedIn()).toBe(true);
    }
    // And state-changing calls still pass the CSRF check with the re-sent XSRF cookie.
    expect((await browser.post('/api/logout')).statusCode).toBe(200);
  });

  it('issue 18 bug 2: the live stream (which carries no cookies) does not use up the renewal; the next ordinary call gets it', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const browser = new Browser();
    await browser.post('/api/register', newPerson());
    advance(61 * MINUTE);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/api/events`, { headers: { cookie: browser.client.cookieHeader } }, (res) => {
        expect(res.headers['set-cookie']).toBeUndefined();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.includes('event: ready')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', reject);
    });
    const next = await browser.get('/api/is-auth');
    expect(next.cookies.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', 'atelier_session']);
  });

  it('issue 18 bug 2: the idle limit still ends a session left alone for 2 hours', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const browser = new Browser();
    await browser.post('/api/register', newPerson());
    advance(70 * MINUTE);
    expect(await browser.signedIn()).toBe(true);
    advance(2 * HOUR + MINUTE);
    // The browser dropped the cookie, and the server would not take it either.
    expect(await browser.signedIn()).toBe(false);
  });

  it('issue 18 bug 2: the server refuses a session idle past 2 hours even when the cookie is still sent', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const person = await registerPerson(t.app);
    advance(2 * HOUR + MINUTE);
    expect((await person.client.get('/api/is-auth')).json().payload.authenticated).toBe(false);
  });

  it('issue 18 bug 2: the absolute limit of 24 hours stays, and the last cookie is cut to it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const person = await registerPerson(t.app);
    const browser = new Browser();
    const { client } = await signIn(t.app, person.email, person.password);
    for (const [name, value] of client.cookies) browser.client.cookies.set(name, value);
    const start = Date.now();
    browser.expiry.set('atelier_session', start + 2 * HOUR);
    browser.expiry.set('XSRF-TOKEN', start + 2 * HOUR);
    let lastMaxAge: number | undefined;
    // Active every 50 minutes up to 23 h 20 min (the cookies go out again every 100 minutes).
    while (Date.now() + 50 * MINUTE < start + 24 * HOUR) {
      advance(50 * MINUTE);
      const res = await browser.get('/api/is-auth');
      expect(res.json().payload.authenticated).toBe(true);
      const sent = res.cookies.find((c) => c.name === 'atelier_session');
      if (sent) lastMaxAge = sent.maxAge;
    }
    // The cookie re-sent at 23 h 20 min lives only to the 24 h mark, 40 minutes on.
    expect(lastMaxAge).toBe(40 * 60);
    vi.setSystemTime(start + 24 * HOUR + 1000);
    expect(await browser.signedIn()).toBe(false);
    // Sent by hand, the old cookie is refused by the server as well.
    const stale = await t.app.inject({ method: 'GET', url: '/api/is-auth', headers: { cookie: client.cookieHeader } });
    expect(stale.json().payload.authenticated).toBe(false);
  });
});

describe('a stale XSRF cookie (issue 18 bug 1)', () => {
  it('issue 18 bug 1: after a password reset in another browser, the old browser gets a 419, renews the XSRF cookie and signs in', async () => {
    const { client: oldBrowser, person } = await registerUser(t.app);
    const other = new TestClient(t.app);
    await other.post('/api/user/reset-password', { email: person.email });
    const token = linkIn((await lastMailTo(t.app, person.email))!.text).searchParams.get('token')!;
    const reset = await other.post('/api/reset-password', { email: person.email, token, password: 'new-lantern-77', password_confirmation: 'new-lantern-77' });
    expect(reset.statusCode).toBe(200);

    // The old browser still holds the ended session's cookies: its sign-in is refused as a CSRF mismatch.
    const refused = await oldBrowser.post('/api/login', { username: person.email, password: 'new-lantern-77' });
    expect(refused.statusCode).toBe(419);
    // What the web app now does on a 419 and before signing in: ask for the XSRF cookie again.
    const staleXsrf = oldBrowser.cookies.get('XSRF-TOKEN');
    expect((await oldBrowser.csrf()).statusCode).toBe(204);
    expect(oldBrowser.cookies.get('XSRF-TOKEN')).not.toBe(staleXsrf);
    const again = await oldBrowser.post('/api/login', { username: person.email, password: 'new-lantern-77' });
    expect(again.statusCode).toBe(200);
    expect((await oldBrowser.get('/api/is-auth')).json().payload.authenticated).toBe(true);
  });
});
