import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type BuildOptions, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type Database, openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { setSetting } from '../src/lib/settings';
import { seedDatabase } from '../src/seeders';

export type TestApp = { app: FastifyInstance; close: () => Promise<void> };

/**
 * A real app on a real, empty database: PGlite in memory by default, or a scratch database created
 * on the PostgreSQL server named by DATABASE_URL (dropped again on close), so test files never share rows.
 */
type TestAppOptions = {
  seed?: boolean;
  logger?: FastifyServerOptions['logger'];
  logStream?: { write(line: string): void };
  env?: Record<string, string>;
  /** Passed to buildApp (a stub payout provider). */
  build?: Pick<BuildOptions, 'payoutProvider'>;
  /** A streaming replica of DATABASE_URL's server: the scratch database there becomes DATABASE_READ_URL. */
  readServerUrl?: string;
  /**
   * A web build for the app to serve, its files by path as the build lays them out (`dist/index.html`,
   * `dist/.vite/manifest.json`, the server renderer at `dist-ssr/entry-server.js`); WEB_DIST is its `dist`.
   */
  web?: Record<string, string>;
};

/**
 * A real app on a real, empty database: PGlite in memory by default, or a scratch database created
 * on the PostgreSQL server named by DATABASE_URL (dropped again on close), so test files never share rows.
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const [only] = await createTestApps(1, opts);
  return only!;
}

/**
 * `count` app servers on ONE database, as several machines behind a load balancer: each has its own
 * connections (its own pool and LISTEN connection on PostgreSQL), caches and data folder. On PGlite
 * they share the one in-process database.
 */
export async function createTestApps(count: number, opts: TestAppOptions = {}): Promise<TestApp[]> {
  const serverUrl = process.env.DATABASE_URL;
  let scratchUrl: string | undefined;
  let readUrl: string | undefined;
  let dropScratch: (() => Promise<void>) | undefined;
  let shared: Database | undefined;
  if (serverUrl) {
    const name = `atelier_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    scratchUrl = url.toString();
    if (opts.readServerUrl) {
      const replica = new URL(opts.readServerUrl);
      replica.pathname = `/${name}`;
      readUrl = replica.toString();
    }
    dropScratch = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    shared = await openDatabase({ pgliteDir: 'memory://' });
  }
  const apps: TestApp[] = [];
  let open = count;
  for (let i = 0; i < count; i++) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-test-'));
    const webRoot = path.join(dataDir, 'web');
    for (const [file, text] of Object.entries(opts.web ?? {})) {
      await mkdir(path.dirname(path.join(webRoot, file)), { recursive: true });
      await writeFile(path.join(webRoot, file), text);
    }
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 's'.repeat(40),
      WEB_DIST: opts.web ? path.join(webRoot, 'dist') : path.join(dataDir, 'no-web'),
      // The address a local start names itself by; a test of a start without it passes PUBLIC_URL: '' (issue 31).
      PUBLIC_URL: 'http://localhost:3000',
      ...opts.env,
    });
    const database = shared ?? (await openDatabase({ url: scratchUrl!, readUrl, pgliteDir: '' }));
    if (i === 0) await runMigrations(database);
    const app = await buildApp({ config, database, logger: opts.logger ?? false, logStream: opts.logStream, ...opts.build });
    if (i === 0 && opts.seed) await seedDatabase(app.db, app.storage, { demo: true, imageSize: 'small' });
    await app.ready();
    apps.push({
      app,
      close: async () => {
        await app.close();
        if (!shared) await database.close();
        await rm(dataDir, { recursive: true, force: true });
        open -= 1;
        if (open === 0) {
          if (shared) await shared.close();
          await dropScratch?.();
        }
      },
    });
  }
  return apps;
}

/**
 * The test file's own app (createTestApp), built before its tests and closed after them: read `.app`
 * inside hooks and tests. `registration: true` opens sign-ups, which a fresh install keeps closed
 * (the demo seed opens them).
 */
export function useTestApp(opts: TestAppOptions & { registration?: boolean } = {}): { readonly app: FastifyInstance } {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await createTestApp(opts);
    if (opts.registration) await setSetting(built.app.db, 'is_reg_enabled', true);
  });
  afterAll(() => built?.close());
  return {
    get app() {
      if (!built) throw new Error('the test app is built before the tests: read it inside a hook or a test');
      return built.app;
    },
  };
}

/** A browser-like client: keeps cookies and echoes XSRF-TOKEN on state-changing calls. */
let clientCount = 0;

export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Each client is its own browser on its own address, so per-IP limits apply per client. */
  readonly ip: string;
  constructor(readonly app: FastifyInstance) {
    clientCount += 1;
    this.ip = `127.0.${Math.floor(clientCount / 250) % 250}.${(clientCount % 250) + 1}`;
  }

  private absorb(res: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) {
    for (const c of res.cookies) {
      if (c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async csrf() {
    const res = await this.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers: { cookie: this.cookieHeader }, remoteAddress: this.ip });
    this.absorb(res);
    return res;
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts: { body?: unknown; headers?: Record<string, string>; payload?: string | Buffer } = {},
  ) {
    if (method !== 'GET' && !this.cookies.has('XSRF-TOKEN')) await this.csrf();
    const headers: Record<string, string> = { cookie: this.cookieHeader, ...opts.headers };
    if (method !== 'GET') headers['x-xsrf-token'] = this.cookies.get('XSRF-TOKEN') ?? '';
    const res = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(opts.payload !== undefined ? { payload: opts.payload } : opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    this.absorb(res);
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, { headers });
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, { body, headers });
  put = (url: string, body?: unknown) => this.request('PUT', url, { body });
  patch = (url: string, body?: unknown) => this.request('PATCH', url, { body });
  delete = (url: string, body?: unknown) => this.request('DELETE', url, { body });
}
