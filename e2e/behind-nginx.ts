import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { freePort } from './server';

/**
 * Several app servers on one PostgreSQL database behind nginx from Debian's packages, as the README's
 * 'Running several app servers' describes: the pieces proxy.e2e.ts and pgbouncer.e2e.ts start, and
 * the browser that works through the proxy. Each test file starts nginx itself, on free ports, with
 * a configuration it writes to its own temporary folder.
 */
const NGINX = '/usr/sbin/nginx';
export const PG_BASE = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type AppServer = { port: number; child: ChildProcess };

/** Polls `check` until it answers true; fails when `child` exits first, or after 5 minutes. */
export async function waitReady(check: () => Promise<boolean>, child: ChildProcess, what: string) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function adminQuery(sql: string) {
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh database `name` on PG_BASE's server (one left over by a killed run is dropped first); answers its URL. */
export async function createDatabase(name: string): Promise<string> {
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return url.toString();
}

export const dropDatabase = (name: string) => adminQuery(`drop database if exists ${name} with (force)`);

/**
 * An app server (built, else from source) on a free port with its data folder in `work`, named by
 * the proxy's address and trusting it; `env` says where its database (and files) are. Every server
 * shares one session secret, so a session holds on each. Start them one after the other: the first
 * migrates and seeds.
 */
export async function startAppServer(work: string, proxyPort: number, env: Record<string, string>): Promise<AppServer> {
  const port = await freePort();
  const built = existsSync('apps/server/dist/server.js');
  const args = built ? ['apps/server/dist/server.js'] : ['--import', 'tsx', 'apps/server/src/server.ts'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, `app-${port}`),
      SESSION_SECRET: 'e2e-shared-session-secret-0123456789abcdef',
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      TRUST_PROXY: '127.0.0.1',
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitReady(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, child, 'app server');
  return { port, child };
}

/** Stops each server that still runs, and waits for it to exit. */
export async function stopAppServers(servers: AppServer[]) {
  for (const s of servers) {
    if (s.child.exitCode === null) {
      const exited = new Promise((r) => s.child.once('exit', r));
      s.child.kill('SIGTERM');
      await exited;
    }
  }
}

/** nginx on `proxyPort`, round robin over `servers`, the live stream unbuffered; its files in `work`. Answers once it proxies /readyz. */
export async function startNginx(work: string, proxyPort: number, servers: AppServer[]): Promise<ChildProcess> {
  const asRoot = process.getuid?.() === 0;
  const conf = `${asRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${work}/body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  upstream atelier {
${servers.map((s) => `    server 127.0.0.1:${s.port};`).join('\n')}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${proxyPort};
    client_max_body_size 25m;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    location = /api/events {
      proxy_pass http://atelier;
      proxy_buffering off;
      proxy_cache off;
    }
    location / {
      proxy_pass http://atelier;
    }
  }
}
`;
  await writeFile(path.join(work, 'nginx.conf'), conf);
  const check = spawnSync(NGINX, ['-t', '-p', work, '-c', path.join(work, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  const nginx = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  await waitReady(async () => (await fetch(`http://127.0.0.1:${proxyPort}/readyz`)).ok, nginx, 'nginx');
  return nginx;
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A browser: its cookies, the XSRF header, and its own loopback address as the client address. */
export class Browser {
  private readonly jar = new Map<string, string>();
  constructor(
    private readonly port: number,
    private readonly address: string,
  ) {}

  request(method: string, pathname: string, body?: unknown, form?: Record<string, string>): Promise<Answer> {
    const headers: Record<string, string> = { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    let payload: string | undefined;
    if (form) {
      payload = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    if (method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, localAddress: this.address, method, path: pathname, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
            const [pair = ''] = line.split(';');
            const at = pair.indexOf('=');
            this.jar.set(pair.slice(0, at), pair.slice(at + 1));
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async json(method: string, pathname: string, body?: unknown) {
    const res = await this.request(method, pathname, body);
    return { status: res.status, json: JSON.parse(res.body.toString() || '{}') };
  }

  async signIn(username: string, password: string) {
    await this.request('GET', '/sanctum/csrf-cookie');
    return this.json('POST', '/api/login', { username, password });
  }

  /** Opens the live stream and collects the events' names. */
  openStream(): Promise<{ events: string[]; close: () => void }> {
    return new Promise((resolve, reject) => {
      const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const req = http.get(
        { host: '127.0.0.1', port: this.port, localAddress: this.address, path: '/api/events', headers: { cookie }, agent: false },
        (res) => {
          const stream = { events: [] as string[], close: () => req.destroy() };
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            for (const m of chunk.matchAll(/^event: (\w+)$/gm)) stream.events.push(m[1]!);
          });
          resolve(stream);
        },
      );
      req.on('error', reject);
    });
  }
}

/**
 * A chat message's live event reaches `buyer`'s stream, whichever server holds it: the buyer opens a
 * chat with the demo creator, who (from `sellerAddress`) then writes through each server directly,
 * so one message is sent by a server that does not hold the stream.
 */
export async function expectChatEventsFromEveryServer(buyer: Browser, proxyPort: number, servers: AppServer[], sellerAddress: string) {
  const seller = new Browser(proxyPort, sellerAddress);
  expect((await seller.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
  const sellerId = (await seller.json('GET', '/api/user/profile')).json.payload.id;
  const chat = await buyer.json('POST', '/api/chat', { recipient_id: sellerId });
  expect(chat.status).toBe(200);
  const stream = await buyer.openStream();
  await expect.poll(() => stream.events).toContain('ready');
  for (const s of servers) {
    const direct = new Browser(s.port, sellerAddress);
    expect((await direct.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
    expect((await direct.json('POST', `/api/chat/${chat.json.payload.id}/messages`, { message: `Hello from ${s.port}` })).status).toBe(200);
  }
  await expect.poll(() => stream.events.filter((e) => e === 'new_message').length, { timeout: 10_000 }).toBe(2);
  stream.close();
}
