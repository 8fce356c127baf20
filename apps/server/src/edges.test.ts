import http from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser, signIn } from '../test/accounts';
import { type TestClient, useTestApp } from '../test/test-app';
import { EVENTS_PER_SESSION } from './features/notifications/notifications.routes';

const t = useTestApp({ registration: true });
let port: number;
beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as { port: number }).port;
});

/** Sends raw HTTP/1.1 bytes and returns the whole answer. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

type Stream = { text: () => string; ended: Promise<void>; isEnded: () => boolean; close: () => void };

/** GET /api/events over its own connection with the client's cookies. */
function openStream(client: TestClient): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie: client.cookieHeader }, agent: false }, (res) => {
      expect(res.statusCode).toBe(200);
      let text = '';
      let done = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      const ended = new Promise<void>((ok) => {
        res.on('end', () => {
          done = true;
          ok();
        });
        res.on('error', () => {
          done = true;
          ok();
        });
      });
      resolve({ text: () => text, ended, isEnded: () => done, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

describe('hole 13: the smaller edges', () => {
  it('hole 13: headers too large are answered 431 in the envelope', async () => {
    const answer = await rawRequest(`GET /api/settings HTTP/1.1\r\nHost: localhost\r\nCookie: big=${'x'.repeat(20_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ status: 'ERROR', message: expect.stringContaining('too large') });
  });

  it('hole 13: /dev/mail refuses any forwarded request, whichever header says so', async () => {
    const direct = await t.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1' });
    expect(direct.statusCode).toBe(200);
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9;proto=https' },
      { 'x-forwarded-host': 'atelier.example' },
      { via: '1.1 proxy' },
      // Issue 29: header names outside any list of proxies' headers, and a proxy's Host, change nothing.
      { 'x-proxyuser-ip': '203.0.113.9' },
      { 'x-original-forwarded-for': '203.0.113.9' },
      { 'x-envoy-external-address': '203.0.113.9' },
      { host: 'atelier.example' },
    ];
    for (const headers of forwarded) {
      const res = await t.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.body).not.toContain('Outbox');
    }
  });

  it(`hole 13: one session holds at most ${EVENTS_PER_SESSION} live streams: a new one closes the oldest`, async () => {
    const { client, person } = await registerUser(t.app);
    const streams: Stream[] = [];
    for (let i = 0; i < EVENTS_PER_SESSION; i++) {
      const s = await openStream(client);
      await expect.poll(() => s.text()).toContain('event: ready');
      streams.push(s);
    }
    // The same person signed in elsewhere is another session, with its own allowance.
    const other = (await signIn(t.app, person.email, person.password)).client;
    const elsewhere = await openStream(other);
    await expect.poll(() => elsewhere.text()).toContain('event: ready');

    const eleventh = await openStream(client);
    await expect.poll(() => eleventh.text()).toContain('event: ready');
    await streams[0]!.ended;
    expect(streams.slice(1).map((s) => s.isEnded())).toEqual(Array(EVENTS_PER_SESSION - 1).fill(false));
    expect(elsewhere.isEnded()).toBe(false);

    const twelfth = await openStream(client);
    await expect.poll(() => twelfth.text()).toContain('event: ready');
    await streams[1]!.ended;
    expect(streams.slice(2).map((s) => s.isEnded())).toEqual(Array(EVENTS_PER_SESSION - 2).fill(false));
    for (const s of [...streams, elsewhere, eleventh, twelfth]) s.close();
  });

  it('hole 13: /page/. is a page not found, not a failed render', async () => {
    // Sent as is (a browser would resolve the dot first; a crawler or curl --path-as-is does not).
    for (const url of ['/page/.', '/page/%2E', '/page/..']) {
      const answer = await rawRequest(`GET ${url} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`);
      expect(answer, url).toMatch(/^HTTP\/1\.1 404 /);
      expect(answer.toLowerCase(), url).toContain('content-type: text/html');
    }
  });

  it('hole 13: HTML answers carry Permissions-Policy and Cross-Origin-Opener-Policy', async () => {
    for (const url of ['/', '/products', '/page/no-such-page', '/dev/mail']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' }, remoteAddress: '127.0.0.1' });
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['permissions-policy'], url).toMatch(/camera=\(\)/);
      expect(res.headers['permissions-policy'], url).toMatch(/geolocation=\(\)/);
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
    const api = await t.app.inject({ url: '/api/settings' });
    expect(api.headers['content-type']).toContain('application/json');
  });
});
