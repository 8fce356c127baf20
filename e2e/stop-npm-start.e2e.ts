import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './server';

/** Whether something accepts connections on the port (the server still holding it). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this process can listen on the port again (nobody holds it). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A process manager stops `npm start` by npm's own PID (systemd, a container's PID 1, a terminal's
 * Ctrl-C). The server must stop with it and let go of the port, not live on as an orphan.
 */
describe('stopping npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the npm process stops the server and frees its port`, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-npm-start-'));
      const port = await freePort();
      try {
        const npm = spawn('npm', ['start'], {
          env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          npm.once('exit', (code, sig) => resolve({ code, signal: sig })),
        );
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status ?? 0, { timeout: 90_000, interval: 250 })
          .toBe(200);

        npm.kill(signal);
        const { code } = await exited;
        // The server drained and exited 0, and npm reported its code.
        expect(code).toBe(0);
        expect(await accepts(port)).toBe(false);
        expect(await canListen(port)).toBe(true);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
