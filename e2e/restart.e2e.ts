import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './server';

function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

describe('npm start on the embedded database', () => {
  it('keeps every row across a graceful stop and a new start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-restart-'));
    try {
      let server = await startServer(dataDir);
      const first = await fetch(`${server.baseUrl}/sanctum/csrf-cookie`);
      const cookie = cookiesOf(first);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)![1]!;
      const sent = await fetch(`${server.baseUrl}/api/contact`, {
        method: 'POST',
        headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Before restart', email: 'r@example.com', message: 'Written before the restart.' }),
      });
      expect(sent.status).toBe(200);
      const pagesBefore = await (await fetch(`${server.baseUrl}/api/static-pages`)).json();
      expect(await server.stop()).toBe(0);

      server = await startServer(dataDir);
      // The session row survived: the same cookie still passes the CSRF check.
      const again = await fetch(`${server.baseUrl}/api/contact`, {
        method: 'POST',
        headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'After restart', email: 'r@example.com', message: 'Written after the restart.' }),
      });
      expect(again.status).toBe(200);
      // The demo data was not seeded twice.
      expect(await (await fetch(`${server.baseUrl}/api/static-pages`)).json()).toEqual(pagesBefore);
      expect(await server.stop()).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
