import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../test/accounts';
import type { TestClient } from '../test/test-app';
import { loadConfig } from './config';
import { setSetting } from './lib/settings';
import type { RunningApp } from './server';

const GRACE_MS = 1000;

/** GET /api/events over a real connection: resolves with the status once headers arrive; `ended` with all the text. */
function openStream(baseUrl: string, client: TestClient) {
  return new Promise<{ status: number; text: () => string; ended: Promise<string> }>((resolve, reject) => {
    const req = http.get(`${baseUrl}/api/events`, { headers: { cookie: client.cookieHeader }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const ended = new Promise<string>((done) => {
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => done(text));
        res.on('error', () => done(text));
      });
      resolve({ status: res.statusCode ?? 0, text: () => text, ended });
    });
    req.on('error', reject);
  });
}

let running: RunningApp;
let dataDir: string;
let baseUrl: string;
beforeAll(async () => {
  const { startServer } = await import('./server');
  dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-shutdown-'));
  running = await startServer(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', SEED_DEMO: 'false', SHUTDOWN_GRACE_MS: String(GRACE_MS), SHUTDOWN_TIMEOUT_MS: '15000', LOG_LEVEL: 'silent' }),
  );
  baseUrl = `http://127.0.0.1:${(running.app.server.address() as AddressInfo).port}`;
  await setSetting(running.app.db, 'is_reg_enabled', true);
}, 120_000);
afterAll(async () => {
  await running.shutdown('test');
  await rm(dataDir, { recursive: true, force: true });
});

describe('shutdown with live streams open', () => {
  it('hole 12: SIGTERM with an /api/events stream open ends the stream at once with a retry, and completes within the grace period plus 1 s', async () => {
    const { client } = await registerUser(running.app);
    const stream = await openStream(baseUrl, client);
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.text()).toContain('event: ready');

    const startedAt = Date.now();
    const exit = running.shutdown('SIGTERM');
    // The stream ends while the server still drains, telling the client how soon to come back.
    const text = await stream.ended;
    expect(running.app.lifecycle.draining).toBe(true);
    expect(text.slice(text.lastIndexOf('event: ready'))).toMatch(/\nretry: 1000\n\n$/);

    // A stream asked for while draining is sent elsewhere at once.
    const late = await openStream(baseUrl, client);
    expect(late.status).toBe(200);
    expect(await late.ended).toBe('retry: 1000\n\n');

    expect(await exit).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(GRACE_MS + 1000);
  });
});
