import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStaff, registerUser } from '../../../test/accounts';
import { balanceMinor, fund, revenueMinor, seededProducts, userIdByEmail } from '../../../test/commerce';
import { createTestApp, type TestApp, TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { categories, generations, jobs, products } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { readStoredZip } from '../../lib/zip';
import { checkLedger } from '../ledger';
import { GENERATION_ATTEMPTS, GENERATION_SETTLE_MS, GENERATION_TIMEOUT_MS, refundGeneration, startGeneration } from './generation';

const t = useTestApp({ seed: true });

/** The seeded prompts under a category url starting with `prefix`, by id. */
async function promptsUnder(prefix: string) {
  const cats = await t.app.db.select().from(categories);
  const ids = new Set(cats.filter((c) => c.url.startsWith(prefix)).map((c) => c.id));
  return (await seededProducts(t.app, 'prompt')).filter((p) => p.categoryId !== null && ids.has(p.categoryId));
}

async function promptOwner(extraMinor: number, kind: 'image' | 'text' = 'image') {
  const { client, person } = await registerUser(t.app);
  const id = await userIdByEmail(t.app, person.email);
  const [, prompt] = await promptsUnder(kind === 'image' ? 'prompts/midjourney' : 'prompts/chatgpt');
  await fund(t.app, id, Number(prompt!.priceMinor) + extraMinor);
  expect((await client.post('/api/purchase/prompt', { prompt_id: prompt!.id })).statusCode).toBe(200);
  return { client, id, prompt: prompt! };
}

describe('generate-image (built-in renderer)', () => {
  it('answers a zip with the image, the prompt and the licence, and charges generation_price', async () => {
    const { client, id, prompt } = await promptOwner(250);
    const revenueBefore = await revenueMinor(t.app);
    const res = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'PNG', size: '1024x1024' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${prompt.slug}-1024x1024.zip"`);
    const files = readStoredZip(res.rawPayload);
    expect(files.map((f) => f.name)).toEqual([`${prompt.slug}-1024x1024.png`, 'prompt.txt', 'LICENSE.txt']);
    const meta = await sharp(files[0]!.data).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(files[1]!.data.toString()).toBe(`${prompt.promptText}\n`);
    expect(files[2]!.data.toString()).toContain('built-in renderer');
    expect(await balanceMinor(t.app, id)).toBe(150);
    expect(await revenueMinor(t.app)).toBe(revenueBefore + 100);
    // Issue 18 bug 4: the charge appears in the buyer's statement.
    const [latest] = (await client.get('/api/balance/statement')).json().payload;
    expect(latest).toMatchObject({ kind: 'generation', description: 'Image generation', amount_minor: -100, balance_after_minor: 150 });

    // The same prompt and size draw the same picture; ids from the settings lists work too.
    const again = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 3, size: 3 });
    const webp = readStoredZip(again.rawPayload)[0]!;
    expect(webp.name).toBe(`${prompt.slug}-1024x1536.webp`);
    expect(await sharp(webp.data).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 1536 });
    expect(await balanceMinor(t.app, id)).toBe(50);

    const short = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'JPEG', size: '1024x1024' });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe('Your balance is too low: 0.50 € is missing. Please add funds to continue.');
    expect(await balanceMinor(t.app, id)).toBe(50);
  });

  it('a bad format or size, a prompt not owned, or a guest is refused', async () => {
    const { client, prompt } = await promptOwner(500);
    const bad = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'BMP', size: '10x10' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.format[0]).toMatch(/PNG, JPEG, WebP/);
    expect(bad.json().errors.size[0]).toMatch(/1024x1024/);
    const [other] = await promptsUnder('prompts/stable-diffusion');
    const notOwned = await client.post('/api/purchase/generate-image', { prompt_id: other!.id, format: 'PNG', size: '1024x1024' });
    expect(notOwned.statusCode).toBe(422);
    expect(notOwned.json().errors.prompt_id).toEqual(['Buy this prompt first to generate images from it.']);
    const [image] = await seededProducts(t.app, 'image');
    expect((await client.post('/api/purchase/generate-image', { prompt_id: image!.id, format: 'PNG', size: '1024x1024' })).json().errors.prompt_id).toEqual([
      'This product is not a prompt.',
    ]);
    expect((await new TestClient(t.app).post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'PNG', size: '1024x1024' })).statusCode).toBe(401);
  });
});

describe('issue 18 bug 4: generation is offered honestly', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ env: { SEED_DEMO: 'false' } });
    await setSetting(off.app.db, 'is_reg_enabled', true);
  });
  afterAll(() => off.close());

  it('issue 18 bug 4: /api/settings says how images are made and what one costs', async () => {
    const demo = (await new TestClient(t.app).get('/api/settings')).json().payload;
    expect(demo).toMatchObject({ image_generation: 'illustration', generation_price: 1 });
    expect((await new TestClient(off.app).get('/api/settings')).json().payload).toMatchObject({ image_generation: 'off', generation_price: 1 });
  });

  it('issue 18 bug 4: with no image model and no demo, generating is refused and charges nothing', async () => {
    const { client, person } = await registerUser(off.app);
    const id = await userIdByEmail(off.app, person.email);
    await fund(off.app, id, 500);
    const res = await client.post('/api/purchase/generate-image', { prompt_id: 1, format: 'PNG', size: '1024x1024' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Image generation is not available on this site: no image model is configured. Nothing was charged.');
    expect(await balanceMinor(off.app, id)).toBe(500);
  });

  it('issue 18 bug 4: a text prompt is refused with a 422 saying which prompts can make images, and the order marks it', async () => {
    const { client, id, prompt } = await promptOwner(500, 'text');
    const res = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'PNG', size: '1024x1024' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.prompt_id).toEqual([
      'This prompt is for a text model (ChatGPT): images can be generated only from image prompts, such as Midjourney or Stable Diffusion prompts. Nothing was charged.',
    ]);
    expect(await balanceMinor(t.app, id)).toBe(500);
    const imageOwner = await promptOwner(0, 'image');
    const [textOrder] = (await client.get('/api/purchase/history')).json().payload;
    const [imageOrder] = (await imageOwner.client.get('/api/purchase/history')).json().payload;
    expect(textOrder.items[0].info.image_prompt).toBe(false);
    expect(imageOrder.items[0].info.image_prompt).toBe(true);
  });
});

describe('generate-image (images API)', () => {
  let api: Server;
  let calls = 0;
  /** While true the API answers 500 to every call. */
  let failing = false;
  let g: TestApp;
  let staff: TestClient;
  let prompt: typeof products.$inferSelect;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    api = createServer((req, res) => {
      calls += 1;
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const ok = req.url === '/v1/images/generations' && req.headers.authorization === 'Bearer test-key' && JSON.parse(body).size === '1536x1024';
        if (failing || !ok) {
          res.writeHead(500).end('{"error":"boom"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ b64_json: png.toString('base64') }] }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const port = (api.address() as AddressInfo).port;
    g = await createTestApp({ env: { IMAGE_API_URL: `http://127.0.0.1:${port}/v1`, IMAGE_API_KEY: 'test-key' } });
    await setSetting(g.app.db, 'is_reg_enabled', true);
    await setSetting(g.app.db, 'formats', [{ id: 1, title: 'JPEG' }]);
    await setSetting(g.app.db, 'sizes', [{ id: 1, title: '1536x1024' }]);
    staff = (await registerStaff(g.app)).client;
    const author = await registerUser(g.app);
    const authorId = await userIdByEmail(g.app, author.person.email);
    const [category] = await g.app.db.insert(categories).values({ title: 'Midjourney', url: 'prompts/midjourney' }).returning();
    const rows = await g.app.db
      .insert(products)
      .values({
        slug: 'api-prompt',
        title: 'API prompt',
        productType: 'prompt',
        authorId,
        priceMinor: 100,
        promptText: 'a lighthouse at dusk',
        categoryId: category!.id,
      })
      .returning();
    prompt = rows[0]!;
  });
  afterAll(async () => {
    await g.close();
    api.close();
  });

  /** A buyer who owns the prompt and has `minor` left to generate with. */
  async function buyer(minor: number) {
    const { client, person } = await registerUser(g.app);
    const id = await userIdByEmail(g.app, person.email);
    await fund(g.app, id, 100 + minor);
    expect((await client.post('/api/purchase/prompt', { prompt_id: prompt.id })).statusCode).toBe(200);
    return { client, id };
  }
  const refundsOf = async (userId: number) =>
    Number(
      rowsOf<{ n: string | number }>(
        await g.app.db.execute(sql`
          select count(*) as n from ledger_transactions t join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id
          where t.reason = 'image generation refund' and a.user_id = ${userId}`),
      )[0]!.n,
    );
  const generationOf = async (id: number) => (await g.app.db.select().from(generations).where(eq(generations.id, id)))[0]!;
  const reconciliation = async () => (await staff.get('/api/admin/ledger/reconciliation')).json().payload;
  /** The server "died" with the job claimed: it stays running under a dead server's lock, past its timeout. */
  const diedWhileRunning = (jobId: number, attempts: number) =>
    g.app.db
      .update(jobs)
      .set({ state: 'running', attempts, lockedBy: 'dead-server', lockedAt: new Date(Date.now() - 10 * 60_000), timeoutAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, jobId));
  const start = (userId: number) =>
    startGeneration(g.app.db, { userId, promptId: prompt.id, promptText: 'a lighthouse at dusk', format: 'jpeg', width: 1536, height: 1024, priceMinor: 100 });

  it('issue 18 bug 4: with an image model configured, /api/settings says model', async () => {
    expect((await new TestClient(g.app).get('/api/settings')).json().payload.image_generation).toBe('model');
  });

  it('hole 4: a generator failing on every attempt refunds the charge exactly once; a working API gives its image', async () => {
    const { client, id } = await buyer(200);
    failing = true;
    const before = calls;
    const failed = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'JPEG', size: '1536x1024' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ status: 'ERROR', message: 'The image could not be generated. Your balance was refunded.' });
    expect(calls - before).toBe(GENERATION_ATTEMPTS);
    expect(await balanceMinor(g.app, id)).toBe(200);
    expect(await refundsOf(id)).toBe(1);
    // The job is failed; running the queue again or the refund again changes nothing.
    await g.app.jobs.runDue({ at: new Date(Date.now() + 3_600_000) });
    const [last] = await g.app.db.select().from(generations).where(eq(generations.userId, id));
    await refundGeneration(g.app.db, last!.id);
    expect(last!.status).toBe('refunded');
    expect(await balanceMinor(g.app, id)).toBe(200);
    expect(await refundsOf(id)).toBe(1);

    failing = false;
    const ok = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'JPEG', size: '1536x1024' });
    expect(ok.statusCode).toBe(200);
    const [image] = readStoredZip(ok.rawPayload);
    expect(image!.name).toBe('api-prompt-1536x1024.jpg');
    expect(await sharp(image!.data).metadata()).toMatchObject({ format: 'jpeg', width: 1536, height: 1024 });
    expect(await balanceMinor(g.app, id)).toBe(100);
    expect(await checkLedger(g.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('hole 4: a job left running by a dead server is taken up after its timeout and ends as an image', async () => {
    failing = false;
    const { id } = await buyer(100);
    const { generationId, jobId } = await start(id);
    expect(await balanceMinor(g.app, id)).toBe(0);
    await diedWhileRunning(jobId, 1);
    await g.app.jobs.runDue(); // the restarted worker
    const done = await generationOf(generationId);
    expect(done).toMatchObject({ status: 'done', refundTransactionId: null });
    const stored = await g.app.storage.statPrivate(done.resultKey!);
    expect(stored?.size).toBeGreaterThan(0);
    expect(await balanceMinor(g.app, id)).toBe(0);
    expect(await refundsOf(id)).toBe(0);
  });

  it('hole 4: a dead server on the last attempt, or before it ran the job at all, ends in a refund or an image', async () => {
    failing = true;
    const { id } = await buyer(200);
    const lastTry = await start(id);
    await diedWhileRunning(lastTry.jobId, GENERATION_ATTEMPTS);
    const neverRan = await start(id); // the request died right after the commit: its job waits for the grace time
    expect(await balanceMinor(g.app, id)).toBe(0);
    await g.app.jobs.runDue();
    expect((await generationOf(lastTry.generationId)).status).toBe('refunded');
    expect(await balanceMinor(g.app, id)).toBe(100);

    failing = false;
    expect((await generationOf(neverRan.generationId)).status).toBe('pending');
    await g.app.jobs.runDue({ at: new Date(Date.now() + GENERATION_TIMEOUT_MS + 1000) });
    expect((await generationOf(neverRan.generationId)).status).toBe('done');
    expect(await balanceMinor(g.app, id)).toBe(100);
    expect(await refundsOf(id)).toBe(1);
  });

  it('hole 4: the reconciliation names a charge older than its jobs can take with neither image nor refund', async () => {
    failing = false;
    expect((await reconciliation()).ok).toBe(true);
    const { id } = await buyer(100);
    const { generationId, jobId } = await start(id);
    // Its job is lost (as if the queue had never run it) and its time is up.
    await g.app.db.delete(jobs).where(eq(jobs.id, jobId));
    expect((await reconciliation()).ok).toBe(true); // still within its time: not a mismatch yet
    await g.app.db
      .update(generations)
      .set({ createdAt: new Date(Date.now() - GENERATION_SETTLE_MS - 60_000), settleBy: new Date(Date.now() - 60_000) })
      .where(eq(generations.id, generationId));
    const red = await reconciliation();
    expect(red.ok).toBe(false);
    expect(red.unsettled_generations).toEqual([generationId]);
    expect(red.first_mismatch).toEqual({ kind: 'generation', id: generationId, actual_minor: 100, expected_minor: 0 });
    await refundGeneration(g.app.db, generationId);
    expect((await reconciliation()).ok).toBe(true);
    expect(await balanceMinor(g.app, id)).toBe(100);
  });
});
