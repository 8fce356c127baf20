import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export type RunningServer = { baseUrl: string; child: ChildProcess; stop: () => Promise<number | null> };

/**
 * Starts the built server (apps/server/dist) on the embedded database in `dataDir`, and waits for /readyz.
 * `publicHost` names the host browsers use (PUBLIC_URL): passkeys need a domain such as localhost, never an IP.
 */
export async function startServer(
  dataDir: string,
  port?: number,
  { publicHost = '127.0.0.1', env = {} }: { publicHost?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const p = port ?? (await freePort());
  const baseUrl = `http://${publicHost}:${p}`;
  const readyUrl = `http://127.0.0.1:${p}/readyz`;
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // The sandbox settles card payouts after this delay; a second keeps the offer e2e short.
      SANDBOX_PAYOUT_DELAY_S: process.env.SANDBOX_PAYOUT_DELAY_S ?? '1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not become ready within 90 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A server of the test file's own, for a file whose sign-ups, sales or settings must not count
 * against (or leak into) the shared server's: started before the file's tests on an embedded
 * database in a fresh temporary folder, stopped and its folder removed after them. Returns the
 * server's base URL as a getter, to read inside hooks and tests (it is known once the server is up).
 */
export function ownServer(
  name: string,
  options: { publicHost?: string; env?: Record<string, string>; before?: (dataDir: string) => Promise<void> } = {},
): () => string {
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `atelier-e2e-${name}-`));
    // Work on the data folder before the server holds it (the embedded database has one owner at a time).
    await options.before?.(dataDir);
    server = await startServer(dataDir, undefined, options);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!server) throw new Error(`the ${name} e2e server is not running (read its base URL inside a hook or test)`);
    return server.baseUrl;
  };
}
