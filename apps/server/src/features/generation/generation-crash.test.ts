import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { balanceMinor, fund } from '../../../test/commerce';
import { createTestApps, type TestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { generations, jobs, products } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { checkLedger, reconcile } from '../ledger';
import { GENERATION_ATTEMPTS, GENERATION_TIMEOUT_MS, startGeneration } from './generation';

/**
 * Issue 17 hole 4 under concurrency: a burst of generations is charged in parallel, the server "dies"
 * with half of the jobs claimed (left running under a dead server's lock) and the rest never run,
 * and two restarted app servers on the same database race for the queue while the images API fails
 * every third call. Every charge must end as an image or a refund, each refund exactly once. Run it
 * with DATABASE_URL for real parallelism (PGlite runs one statement at a time).
 */
let servers: TestApp[];
let api: Server;
let calls = 0;
beforeAll(async () => {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#663399' } })
    .png()
    .toBuffer();
  api = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => {
      if (calls % 3 === 0) res.writeHead(500).end('{"error":"busy"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ b64_json: png.toString('base64') }] }));
    });
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const port = (api.address() as AddressInfo).port;
  servers = await createTestApps(2, { env: { IMAGE_API_URL: `http://127.0.0.1:${port}/v1`, IMAGE_API_KEY: 'k' } });
  await setSetting(servers[0]!.app.db, 'is_reg_enabled', true);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  api.close();
});

describe('hole 4: generation with a crash in the middle', () => {
  it('hole 4: generation with a crash in the middle: every charge ends as an image or a refund', async () => {
    const app = servers[0]!.app;
    const author = await registerPerson(app);
    const [prompt] = await app.db
      .insert(products)
      .values({ slug: 'crash-prompt', title: 'Crash prompt', productType: 'prompt', authorId: author.id, priceMinor: 100, promptText: 'a storm' })
      .returning();
    const buyers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const b = await registerPerson(app);
      await fund(app, b.id, 300);
      buyers.push(b.id);
    }
    // The burst: three generations per buyer, charged in parallel on both servers.
    const started = await Promise.all(
      buyers.flatMap((userId, i) =>
        [0, 1, 2].map((k) =>
          startGeneration(servers[(i + k) % 2]!.app.db, {
            userId,
            promptId: prompt!.id,
            promptText: 'a storm',
            format: 'png',
            width: 64,
            height: 64,
            priceMinor: 100,
          }),
        ),
      ),
    );
    expect(started).toHaveLength(24);
    for (const id of buyers) expect(await balanceMinor(app, id)).toBe(0);

    // kill -9: every other job was claimed (at some attempt) by the dead server, the rest never ran.
    const claimed = started.filter((_, i) => i % 2 === 0).map((s) => s.jobId);
    for (const [i, jobId] of claimed.entries()) {
      await app.db
        .update(jobs)
        .set({
          state: 'running',
          attempts: (i % GENERATION_ATTEMPTS) + 1,
          lockedBy: 'dead-server',
          lockedAt: new Date(Date.now() - 10 * 60_000),
          timeoutAt: new Date(Date.now() - 60_000),
        })
        .where(eq(jobs.id, jobId));
    }

    // Two restarted servers race for the queue until nothing is left (later rounds step past the backoffs).
    const ids = started.map((s) => s.generationId);
    for (let round = 0; round < 10; round++) {
      const at = new Date(Date.now() + GENERATION_TIMEOUT_MS + round * 60_000);
      await Promise.all(servers.map((s) => s.app.jobs.runDue({ at })));
      const pending = await app.db
        .select({ id: generations.id })
        .from(generations)
        .where(sql`${generations.status} = 'pending' and ${inArray(generations.id, ids)}`);
      if (!pending.length) break;
    }

    const rows = await app.db.select().from(generations).where(inArray(generations.id, ids));
    expect(rows.every((g) => g.status === 'done' || g.status === 'refunded')).toBe(true);
    const refunds = rowsOf<{ id: string | number; n: string | number }>(
      await app.db.execute(sql`
      select g.id, count(t.id) as n from generations g left join ledger_transactions t on t.idempotency_key = 'generation-refund:' || g.id
      group by g.id`),
    );
    const refundCount = new Map(refunds.map((r) => [Number(r.id), Number(r.n)]));
    for (const g of rows) expect(refundCount.get(g.id)).toBe(g.status === 'refunded' ? 1 : 0);
    for (const id of buyers) {
      const images = rows.filter((g) => g.userId === id && g.status === 'done').length;
      expect(await balanceMinor(app, id)).toBe(300 - 100 * images);
    }
    expect(rows.some((g) => g.status === 'done')).toBe(true);
    expect(await checkLedger(app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    expect((await reconcile(app.db)).unsettled_generations).toEqual([]);
  });
});
