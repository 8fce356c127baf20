import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../apps/server/test/s3-server';
import {
  type AppServer,
  Browser,
  createDatabase,
  dropDatabase,
  expectChatEventsFromEveryServer,
  startAppServer,
  startNginx,
  stopAppServers,
} from './behind-nginx';
import { freePort } from './server';

/**
 * Two app servers on one PostgreSQL and one S3 stand-in, behind nginx from Debian's packages, as the
 * README's 'Running several app servers' describes. A buyer works only through the proxy.
 */
let work: string;
let dbName: string;
let s3: TestS3Server;
let servers: AppServer[] = [];
let nginx: ChildProcess | undefined;
let proxyPort: number;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'atelier-proxy-e2e-'));
  dbName = `atelier_e2e_proxy_${process.pid}`;
  const dbUrl = await createDatabase(dbName);
  s3 = await startS3Server();
  proxyPort = await freePort();
  const env = { DATABASE_URL: dbUrl, STORAGE_URL: s3.storageUrl('e2e') };
  // One after the other: the first migrates and seeds.
  servers = [await startAppServer(work, proxyPort, env)];
  servers.push(await startAppServer(work, proxyPort, env));
  nginx = await startNginx(work, proxyPort, servers);
}, 600_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await stopAppServers(servers);
  await s3?.close();
  await dropDatabase(dbName);
  await rm(work, { recursive: true, force: true });
});

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
    await expectChatEventsFromEveryServer(buyer, proxyPort, servers, '127.2.0.3');

    // The file comes from the shared bucket, through either server.
    for (let i = 0; i < 2; i++) {
      const file = await buyer.request('GET', `/api/user/media/download?id=${order!.id}&product_id=${productId}`);
      expect(file.status).toBe(200);
      expect(file.body.length).toBeGreaterThan(1000);
    }
  });
});
