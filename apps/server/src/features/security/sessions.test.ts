import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson } from '../../../test/accounts';
import { openStream } from '../../../test/event-stream';
import { cityDatabase } from '../../../test/mmdb-writer';
import { createTestApp, type TestApp, TestClient, useTestApp } from '../../../test/test-app';
import { mailOutbox, sessions } from '../../db/schema';
import { coarseIp, describeUserAgent, deviceOf } from '../../lib/client-hints';

const t = useTestApp({ seed: true });
let base: string;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Signs in from a new browser (its own cookies and address) sending `userAgent`. */
async function signInFrom(email: string, password: string, userAgent = CHROME_WINDOWS) {
  const client = new TestClient(t.app);
  const res = await client.post('/api/login', { username: email, password }, { 'user-agent': userAgent });
  expect(res.statusCode).toBe(200);
  return client;
}

async function mailsTo(to: string) {
  const [row] = await t.app.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.to, to));
  return Number(row!.n);
}

describe('sessions (issue 21)', () => {
  it('issue 21: the list names each browser, system and a coarse address, never the full one, and marks the current session', async () => {
    const a = await registerPerson(t.app);
    const other = await signInFrom(a.email, a.password);
    const res = await a.client.get('/api/user/sessions');
    expect(res.statusCode).toBe(200);
    const list = res.json().payload as {
      id: string;
      current: boolean;
      browser: string;
      os: string;
      ip_hint: string;
      created_at: string;
      last_seen_at: string;
    }[];
    expect(list).toHaveLength(2);
    const current = list.find((s) => s.current)!;
    const chrome = list.find((s) => !s.current)!;
    expect(chrome).toMatchObject({ browser: 'Chrome', os: 'Windows' });
    expect(chrome.ip_hint).toBe(`${other.ip.split('.').slice(0, 3).join('.')}.x`);
    expect(current.ip_hint).toBe(`${a.client.ip.split('.').slice(0, 3).join('.')}.x`);
    expect(JSON.stringify(list)).not.toContain(other.ip);
    expect(JSON.stringify(list)).not.toContain(a.client.ip);
    expect(Date.parse(chrome.created_at)).toBeGreaterThan(0);
    // The id shown is not the database's session key.
    const keys = (await t.app.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, a.id))).map((r) => r.id);
    for (const s of list) expect(keys).not.toContain(s.id);
    expect((await new TestClient(t.app).get('/api/user/sessions')).statusCode).toBe(401);
  });

  it('issue 21: signing out one session makes its next request 401 and closes its live stream at once', async () => {
    const a = await registerPerson(t.app);
    const laptop = await signInFrom(a.email, a.password, FIREFOX_LINUX);
    const stream = await openStream(base, laptop);
    await stream.next('ready');
    const list = (await a.client.get('/api/user/sessions')).json().payload as { id: string; current: boolean }[];
    const target = list.find((s) => !s.current)!;
    const res = await a.client.delete(`/api/user/sessions/${target.id}`);
    expect(res.statusCode).toBe(200);
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toContain('session_revoked');
    expect((await laptop.get('/api/user/profile')).statusCode).toBe(401);
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);
    expect((await a.client.get('/api/user/sessions')).json().payload).toHaveLength(1);
    // Gone is gone: a second delete is a 404.
    expect((await a.client.delete(`/api/user/sessions/${target.id}`)).statusCode).toBe(404);
  });

  it("issue 21: a second user can neither see nor sign out the first user's sessions", async () => {
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    const aList = (await a.client.get('/api/user/sessions')).json().payload as { id: string }[];
    const bList = (await b.client.get('/api/user/sessions')).json().payload as { id: string }[];
    expect(bList.map((s) => s.id)).not.toContain(aList[0]!.id);
    const res = await b.client.delete(`/api/user/sessions/${aList[0]!.id}`);
    expect(res.statusCode).toBe(404);
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);
    expect((await b.client.delete('/api/user/sessions/not-a-session')).statusCode).toBe(422);
  });

  it('issue 21: revoke-others signs out every other session (their next request is 401) and keeps this one', async () => {
    const a = await registerPerson(t.app);
    const phone = await signInFrom(a.email, a.password);
    const tablet = await signInFrom(a.email, a.password, FIREFOX_LINUX);
    const stream = await openStream(base, tablet);
    await stream.next('ready');
    const res = await a.client.post('/api/user/sessions/revoke-others');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('2 other browsers are signed out.');
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toContain('session_revoked');
    expect((await phone.get('/api/user/profile')).statusCode).toBe(401);
    expect((await tablet.get('/api/user/profile')).statusCode).toBe(401);
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);
    const list = (await a.client.get('/api/user/sessions')).json().payload as { current: boolean }[];
    expect(list).toEqual([expect.objectContaining({ current: true })]);
  });

  it('issue 21: a password change signs out the other sessions and keeps this one', async () => {
    const a = await registerPerson(t.app);
    const phone = await signInFrom(a.email, a.password);
    const res = await a.client.post('/api/user/change-password', {
      cur_password: a.password,
      new_password: 'amber-lantern-77',
      repeat_password: 'amber-lantern-77',
    });
    expect(res.statusCode).toBe(200);
    expect((await phone.get('/api/user/profile')).statusCode).toBe(401);
    expect((await a.client.get('/api/user/profile')).statusCode).toBe(200);
  });

  it('issue 21: a sign-in from a browser the account has not used before sends an e-mail with when, which browser, a coarse place and the Security link', async () => {
    const a = await registerPerson(t.app);
    // The browser that registered is known: signing in there again sends nothing.
    const before = await mailsTo(a.email);
    await a.client.post('/api/logout');
    expect((await a.client.post('/api/login', { username: a.email, password: a.password })).statusCode).toBe(200);
    expect(await mailsTo(a.email)).toBe(before);

    const stranger = await signInFrom(a.email, a.password);
    expect(await mailsTo(a.email)).toBe(before + 1);
    const mail = await lastMailTo(t.app, a.email);
    expect(mail!.subject).toBe('New sign-in to your Atelier account');
    expect(mail!.text).toContain('Browser: Chrome on Windows');
    expect(mail!.text).toMatch(/When: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(mail!.text).toContain(`Network: ${stranger.ip.split('.').slice(0, 3).join('.')}.x`);
    expect(mail!.text).not.toContain(stranger.ip);
    expect(mail!.text).toContain(`${t.app.config.publicUrl}/dashboard/security`);
    // That browser is known from now on.
    await stranger.post('/api/logout');
    await stranger.post('/api/login', { username: a.email, password: a.password }, { 'user-agent': CHROME_WINDOWS });
    expect(await mailsTo(a.email)).toBe(before + 1);
  });
});

describe('client hints', () => {
  it('issue 21: addresses are cut to a coarse hint, never kept whole', () => {
    expect(coarseIp('203.0.113.77')).toBe('203.0.113.x');
    expect(coarseIp('::ffff:198.51.100.9')).toBe('198.51.100.x');
    expect(coarseIp('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3::x');
    expect(coarseIp('2001:db8::1')).toBe('2001:db8:0::x');
    expect(coarseIp('not an address')).toBe('');
  });

  it('issue 21: user agents name the browser and system', () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toEqual({ browser: 'Chrome', os: 'Windows' });
    expect(describeUserAgent(FIREFOX_LINUX)).toEqual({ browser: 'Firefox', os: 'Linux' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS' });
    expect(
      describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'),
    ).toEqual({ browser: 'Edge', os: 'macOS' });
    expect(describeUserAgent('')).toEqual({ browser: 'Unknown browser', os: 'Unknown system' });
  });

  it('issue 31: the list shows this browser first and names the device, a phone as a phone', async () => {
    const a = await registerPerson(t.app);
    await signInFrom(a.email, a.password, CHROME_WINDOWS);
    await signInFrom(
      a.email,
      a.password,
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    );
    // The other sessions were seen last, yet this browser leads the list.
    const list = (await a.client.get('/api/user/sessions')).json().payload as { current: boolean; browser: string; os: string; device: string }[];
    expect(list).toHaveLength(3);
    expect(list[0]!.current).toBe(true);
    expect(list.slice(1).map((s) => `${s.browser} ${s.os} ${s.device}`)).toEqual(['Chrome Android phone', 'Chrome Windows computer']);
    expect(
      deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1'),
    ).toBe('phone');
    expect(deviceOf('Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1')).toBe(
      'tablet',
    );
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('tablet');
    expect(deviceOf(FIREFOX_LINUX)).toBe('computer');
  });
});

describe('the sign-in alert with a GeoIP database (issue 21)', () => {
  let geo: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'atelier-geoip-'));
    // The test clients' addresses are 127.0.x.y: this database places them in Berlin.
    await writeFile(path.join(dir, 'city.mmdb'), cityDatabase('127.0.0.0/16', 'Berlin', 'Germany', 'DE'));
    geo = await createTestApp({ seed: true, env: { GEOIP_DB: path.join(dir, 'city.mmdb') } });
  });
  afterAll(async () => {
    await geo.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the coarse place of the new browser, as well as its network', async () => {
    const a = await registerPerson(geo.app);
    const stranger = new TestClient(geo.app);
    expect((await stranger.post('/api/login', { username: a.email, password: a.password }, { 'user-agent': FIREFOX_LINUX })).statusCode).toBe(200);
    const mail = await lastMailTo(geo.app, a.email);
    expect(mail!.subject).toBe('New sign-in to your Atelier account');
    expect(mail!.text).toContain('Place: Berlin, Germany (approximate)');
    expect(mail!.text).toContain(`Network: ${stranger.ip.split('.').slice(0, 3).join('.')}.x`);
    expect(mail!.text).toContain('Browser: Firefox on Linux');
  });
});
