import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { balanceMinor, fund, seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { categories, generations, jobs } from '../../db/schema';
import { readStoredZip } from '../../lib/zip';
import { reconcile } from '../ledger';
import { GENERATION_ATTEMPTS, type GenerationWaiters, renderGeneration, startGeneration, stopWaiting } from './generation';
import { createBuiltinRenderer } from './image-generator';

/**
 * Issue 29, item 7: paid generations are never lost. The buyer lists them (GET /api/user/generations)
 * and downloads each again; one that settles after its request ended (the server died, the request
 * gave up) rings the buyer's bell; after a crash the charge settles once the job's lease has passed.
 */
const t = useTestApp({ seed: true });

type Listed = {
  id: number;
  prompt_id: number | null;
  prompt_title: string | null;
  status: string;
  price: number;
  created_at: number;
  download_url: string | null;
};
const listOf = async (client: TestClient) => {
  const res = await client.get('/api/user/generations');
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('OK');
  return res.json().payload as Listed[];
};
const bell = async (client: TestClient) =>
  ((await client.get('/api/notifications')).json().payload as { kind: string; text: string; link: string | null }[]).filter(
    (n) => n.kind === 'generation_finished',
  );

/** A buyer who owns an image prompt and has `extra` EUR cents left. */
async function promptOwner(extra: number) {
  const person = await registerPerson(t.app);
  const cats = await t.app.db.select().from(categories);
  const image = new Set(cats.filter((c) => c.url.startsWith('prompts/midjourney')).map((c) => c.id));
  const prompt = (await seededProducts(t.app, 'prompt')).find((p) => p.categoryId !== null && image.has(p.categoryId))!;
  await fund(t.app, person.id, Number(prompt.priceMinor) + extra);
  expect((await person.client.post('/api/purchase/prompt', { prompt_id: prompt.id })).statusCode).toBe(200);
  return { ...person, prompt };
}

const start = (userId: number, promptId: number) =>
  startGeneration(t.app.db, { userId, promptId, promptText: 'a lighthouse at dusk', format: 'png', width: 64, height: 64, priceMinor: 100 });

/** The server "died" with the job claimed on attempt `attempts`; its lease ran out a minute ago. */
const diedWhileRunning = (jobId: number, attempts: number) =>
  t.app.db
    .update(jobs)
    .set({ state: 'running', attempts, lockedBy: 'dead-server', lockedAt: new Date(Date.now() - 4 * 60_000), timeoutAt: new Date(Date.now() - 60_000) })
    .where(eq(jobs.id, jobId));

describe('GET /api/user/generations', () => {
  it('lists the buyer’s generated images with a download that gives the same zip; a delivered one rings no bell', async () => {
    const buyer = await promptOwner(300);
    expect(await listOf(buyer.client)).toEqual([]);
    const made = await buyer.client.post('/api/purchase/generate-image', { prompt_id: buyer.prompt.id, format: 'PNG', size: '1024x1024' });
    expect(made.statusCode).toBe(200);

    const [listed] = await listOf(buyer.client);
    expect(listed).toEqual({
      id: expect.any(Number),
      prompt_id: buyer.prompt.id,
      prompt_title: buyer.prompt.title,
      status: 'ready',
      price: 1,
      created_at: expect.any(Number),
      download_url: `/api/user/generations/${listed!.id}/download`,
    });
    const again = await buyer.client.get(listed!.download_url!);
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe('application/zip');
    expect(again.headers['content-disposition']).toBe(made.headers['content-disposition']);
    expect(readStoredZip(again.rawPayload).map((f) => f.name)).toEqual(readStoredZip(made.rawPayload).map((f) => f.name));
    expect(readStoredZip(again.rawPayload)[0]!.data.equals(readStoredZip(made.rawPayload)[0]!.data)).toBe(true);
    // The request delivered it: no bell.
    expect(await bell(buyer.client)).toEqual([]);
  });

  it('a second user sees none of the first user’s generations and cannot download them; a guest is asked to sign in', async () => {
    const first = await promptOwner(200);
    const { generationId, jobId } = await start(first.id, first.prompt.id);
    await t.app.jobs.runJob(jobId);
    const second = await registerPerson(t.app);
    expect(await listOf(second.client)).toEqual([]);
    const theirs = await second.client.get(`/api/user/generations/${generationId}/download`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ status: 'ERROR', message: 'This generated image was not found.' });
    expect((await first.client.get(`/api/user/generations/${generationId}/download`)).statusCode).toBe(200);
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/user/generations')).statusCode).toBe(401);
    expect((await guest.get(`/api/user/generations/${generationId}/download`)).statusCode).toBe(401);
    expect((await second.client.get('/api/user/generations/0/download')).statusCode).toBe(422);
  });

  it('after a crash mid-render the charge shows as processing, then, once the lease has passed, the image is ready and the bell rings', async () => {
    const buyer = await promptOwner(100);
    const { generationId, jobId } = await start(buyer.id, buyer.prompt.id);
    // The request's server dies while rendering: its claim's lease is still running.
    await t.app.db
      .update(jobs)
      .set({ state: 'running', attempts: 1, lockedBy: 'dead-server', lockedAt: new Date(), timeoutAt: new Date(Date.now() + 60_000) })
      .where(eq(jobs.id, jobId));
    await t.app.jobs.runDue();
    const [processing] = await listOf(buyer.client);
    expect(processing).toMatchObject({ id: generationId, status: 'processing', download_url: null, price: 1 });
    const early = await buyer.client.get(`/api/user/generations/${generationId}/download`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/still being generated/);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);

    // The lease runs out: the next round takes the job up and settles it.
    await diedWhileRunning(jobId, 1);
    await t.app.jobs.runDue();
    const [ready] = await listOf(buyer.client);
    expect(ready).toMatchObject({ id: generationId, status: 'ready', download_url: `/api/user/generations/${generationId}/download` });
    expect((await buyer.client.get(ready!.download_url!)).statusCode).toBe(200);
    const told = await bell(buyer.client);
    expect(told).toEqual([expect.objectContaining({ text: 'Your generated image is ready: download it from your order history.', link: '/dashboard/orders' })]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    // Running the queue again tells nobody twice.
    await t.app.jobs.runDue();
    expect(await bell(buyer.client)).toHaveLength(1);
  });

  it('a crash on the last attempt settles as a refund as soon as the lease has passed, and the bell says so', async () => {
    const buyer = await promptOwner(100);
    const { generationId, jobId } = await start(buyer.id, buyer.prompt.id);
    await diedWhileRunning(jobId, GENERATION_ATTEMPTS);
    await t.app.jobs.runDue();
    const [refunded] = await listOf(buyer.client);
    expect(refunded).toMatchObject({ id: generationId, status: 'refunded', download_url: null });
    expect(await balanceMinor(t.app, buyer.id)).toBe(100);
    expect((await buyer.client.get(`/api/user/generations/${generationId}/download`)).statusCode).toBe(410);
    expect((await bell(buyer.client)).map((n) => n.text)).toEqual(['Your image could not be generated. Your balance was refunded.']);
    expect((await reconcile(t.app.db)).unsettled_generations).toEqual([]);
  });

  it('a running poller takes up a job whose lease has passed at its next poll, not at a later maintenance round', async () => {
    const buyer = await promptOwner(100);
    t.app.jobs.start({ intervalMs: 20 });
    try {
      // A first generation whose job is due now: once the poller has run it, its maintenance round
      // (lapsed leases put back, once a minute) is behind it.
      const first = await start(buyer.id, buyer.prompt.id);
      await t.app.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, first.jobId));
      await vi.waitFor(
        async () => {
          const [g] = await t.app.db.select().from(generations).where(eq(generations.id, first.generationId));
          expect(g!.status).toBe('done');
        },
        { timeout: 30_000, interval: 50 },
      );
      await fund(t.app, buyer.id, 100);
      const { generationId, jobId } = await start(buyer.id, buyer.prompt.id);
      await diedWhileRunning(jobId, 1);
      await vi.waitFor(
        async () => {
          const [g] = await t.app.db.select().from(generations).where(eq(generations.id, generationId));
          expect(g!.status).toBe('done');
        },
        { timeout: 30_000, interval: 50 },
      );
    } finally {
      await t.app.jobs.stop();
    }
    expect((await listOf(buyer.client)).map((g) => g.status)).toEqual(['ready', 'ready']);
    expect(await bell(buyer.client)).toHaveLength(2);
  });
});

describe('who is told when a generation settles', () => {
  const generator = createBuiltinRenderer();
  it('a request still waiting gets the answer; once it stopped waiting the buyer is told; a late settle is told once', async () => {
    const buyer = await promptOwner(300);
    const waiters: GenerationWaiters = new Set();
    // Waited for: the settle is this request's to deliver.
    const waited = await start(buyer.id, buyer.prompt.id);
    waiters.add(waited.generationId);
    await renderGeneration(t.app.db, generator, t.app.storage, waited.generationId, undefined, waiters);
    expect(await bell(buyer.client)).toEqual([]);

    // The request gave up before the settle: the settle tells the buyer.
    const gaveUp = await start(buyer.id, buyer.prompt.id);
    waiters.add(gaveUp.generationId);
    const pending = await stopWaiting(t.app.db, waiters, gaveUp.generationId, { clientGone: false });
    expect(pending?.status).toBe('pending');
    await renderGeneration(t.app.db, generator, t.app.storage, gaveUp.generationId, undefined, waiters);
    expect(await bell(buyer.client)).toHaveLength(1);

    // Settled while waited for, but the client went away before the answer reached it: told now, once.
    const lost = await start(buyer.id, buyer.prompt.id);
    waiters.add(lost.generationId);
    await renderGeneration(t.app.db, generator, t.app.storage, lost.generationId, undefined, waiters);
    expect(await bell(buyer.client)).toHaveLength(1);
    await stopWaiting(t.app.db, waiters, lost.generationId, { clientGone: true });
    await stopWaiting(t.app.db, waiters, lost.generationId, { clientGone: true });
    expect(await bell(buyer.client)).toHaveLength(2);
    expect((await listOf(buyer.client)).map((g) => g.status)).toEqual(['ready', 'ready', 'ready']);
  });
});
