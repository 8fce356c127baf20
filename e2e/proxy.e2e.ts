import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../apps/server/test/s3-server';
import { freePort } from './server';

/**
 * Two app servers on one PostgreSQL and one S3 stand-in, behind nginx from Debian's packages, as the
 * README's 'Running several app servers' describes. A buyer works only through the proxy.
 */
const NGINX = '/usr/sbin/nginx';
const PG_BASE = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Server = { port: number; child: ChildProcess };
let work: string;
let dbName: string;
let dbUrl: string;
let s3: TestS3Server;
let servers: Server[] = [];
let nginx: ChildProcess | undefined;
let proxyPort: number;

async function waitReady(url: string, child: ChildProcess) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startApp(port: number, secret: string): Promise<Server> {
  const built = existsSync('apps/server/dist/server.js');
  const args = built ? ['apps/server/dist/server.js'] : ['--import', 'tsx', 'apps/server/src/server.ts'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, `app-${port}`),
      DATABASE_URL: dbUrl,
      STORAGE_URL: s3.storageUrl('e2e'),
      SESSION_SECRET: secret,
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      TRUST_PROXY: '127.0.0.1',
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitReady(`http://127.0.0.1:${port}/readyz`, child);
  return { port, child };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'atelier-proxy-e2e-'));
  dbName = `atelier_e2e_proxy_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  s3 = await startS3Server();
  proxyPort = await freePort();
  const secret = 'e2e-shared-session-secret-0123456789abcdef';
  // One after the other: the first migrates and seeds.
  const first = await startApp(await freePort(), secret);
  const second = await startApp(await freePort(), secret);
  servers = [first, second];
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
    server 127.0.0.1:${first.port};
    server 127.0.0.1:${second.port};
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
  nginx = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  await waitReady(`http://127.0.0.1:${proxyPort}/readyz`, nginx);
}, 600_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const s of servers) {
    if (s.child.exitCode === null) {
      const exited = new Promise((r) => s.child.once('exit', r));
      s.child.kill('SIGTERM');
      await exited;
    }
  }
  await s3?.close();
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  await rm(work, { recursive: true, force: true });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A browser: its cookies, the XSRF header, and its own loopback address as the client address. */
class Browser {
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

describe('two app servers behind nginx', () => {
  it('hole 11: a buyer signs in past a guessing stranger, adds funds, buys, hears a chat message sent through the other server, and downloads', async () => {
    // Rate limits count each client's own address: one guessing visitor does not lock out the others.
    const guesser = new Browser(proxyPort, '127.2.0.9');
    const guesses: number[] = [];
    for (let i = 0; i < 21; i++) guesses.push((await guesser.signIn(`nobody${i}@example.com`, 'wrong-password-1')).status);
    expect(guesses[20]).toBe(429);

    const buyer = new Browser(proxyPort, '127.2.0.2');
    expect((await buyer.signIn('buyer@example.com', 'atelier-demo')).status).toBe(200);
    // Requests alternate between the servers (round robin): the session holds on both.
    for (let i = 0; i < 4; i++) expect((await buyer.json('GET', '/api/user/profile')).status).toBe(200);

    // Add funds with the sandbox's card page, all through the proxy.
    const started = await buyer.json('POST', '/api/deposit/checkout', { amount: 50, currency: 'EUR', payment_method: 'sandbox-card' });
    expect(started.status).toBe(200);
    const payPath = new URL(started.json.payload.redirect_url).pathname;
    const year = String(new Date().getUTCFullYear() + 2);
    const paid = await buyer.request('POST', payPath, undefined, { card_number: '4242424242424242', exp_month: '12', exp_year: year, cvc: '123' });
    expect(paid.status).toBe(303);
    await expect
      .poll(async () => (await buyer.json('GET', `/api/deposit/status?order_id=${started.json.payload.order_id}`)).json.payload.status)
      .toBe('success');

    // Buy an image the buyer does not own yet.
    const catalog = await buyer.json('GET', '/api/products/catalog?product_type=image&limit=48');
    const images = catalog.json.payload as { id: number }[];
    let order: { id: number } | undefined;
    let productId = 0;
    const refused: string[] = [];
    for (const item of images) {
      const res = await buyer.json('POST', '/api/purchase/buy', { item_id: item.id });
      if (res.status === 200) {
        order = res.json.payload.order;
        productId = item.id;
        break;
      }
      refused.push(`${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    }
    expect(order, refused.slice(0, 3).join('\n')).toBeDefined();

    // A chat message's live event reaches the buyer's stream, whichever server holds it.
    const seller = new Browser(proxyPort, '127.2.0.3');
    expect((await seller.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
    const sellerId = (await seller.json('GET', '/api/user/profile')).json.payload.id;
    const chat = await buyer.json('POST', '/api/chat', { recipient_id: sellerId });
    expect(chat.status).toBe(200);
    const stream = await buyer.openStream();
    await expect.poll(() => stream.events).toContain('ready');
    // Sent to each server directly: one of them is not the one holding the stream.
    for (const s of servers) {
      const direct = new Browser(s.port, '127.2.0.3');
      expect((await direct.signIn('seller@example.com', 'atelier-demo')).status).toBe(200);
      expect((await direct.json('POST', `/api/chat/${chat.json.payload.id}/messages`, { message: `Hello from ${s.port}` })).status).toBe(200);
    }
    await expect.poll(() => stream.events.filter((e) => e === 'new_message').length, { timeout: 10_000 }).toBe(2);
    stream.close();

    // The file comes from the shared bucket, through either server.
    for (let i = 0; i < 2; i++) {
      const file = await buyer.request('GET', `/api/user/media/download?id=${order!.id}&product_id=${productId}`);
      expect(file.status).toBe(200);
      expect(file.body.length).toBeGreaterThan(1000);
    }
  });
});
