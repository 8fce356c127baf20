import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './server';

type Outcome = { status: number } | { error: string };

/** One request on its own connection (no keep-alive pooling), reporting a status or the socket error. */
function get(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
  });
}

describe('graceful shutdown', () => {
  it('finishes 80 requests in flight on SIGTERM: no connection is reset', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-shutdown-'));
    try {
      const server = await startServer(dataDir);
      // Pages rendered on the server and catalogue searches: real work, tens of milliseconds each.
      const urls = Array.from({ length: 80 }, (_, i) =>
        i % 2 ? `${server.baseUrl}/products?search=light&page=${i}` : `${server.baseUrl}/api/products/catalog?search=portrait&page=${(i % 3) + 1}`,
      );
      const inFlight = urls.map((u) => get(u));
      await new Promise((r) => setTimeout(r, 30));
      const exited = server.stop();
      const outcomes = await Promise.all(inFlight);
      expect(await exited).toBe(0);
      const errors = outcomes.filter((o) => 'error' in o);
      expect(errors, JSON.stringify(errors.slice(0, 5))).toEqual([]);
      expect(outcomes.every((o) => 'status' in o && o.status === 200)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
