import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { generations, products } from '../../db/schema';
import { enqueue } from '../../lib/jobs';
import type { Storage } from '../../lib/storage';
import { PLATFORM_REVENUE, systemAccountId, transfer, userAccountId } from '../ledger';
import { notify } from '../notifications';
import { generationLifecycle } from './generation-states';
import type { ImageFormat, ImageGenerator } from './image-generator';

/**
 * Crash-safe image generation (issue 17, hole 4). The charge, a `generations` row and its job are
 * written in ONE transaction; the job (keyed by the generation id) renders the image and stores it,
 * is retried, and after its last attempt refunds the charge exactly once (the ledger's idempotency
 * key `generation-refund:<id>`). Whatever dies when, every charge ends as an image (status done) or
 * a refund (status refunded): a job left running by a dead server is taken up again after its timeout.
 */
export const GENERATION_JOB = 'generation.render';
/** One attempt (a call to the images API, which itself gives up after 120 s) may take this long. */
export const GENERATION_TIMEOUT_MS = 150_000;
export const GENERATION_ATTEMPTS = 3;
const GENERATION_BACKOFF_MS = 5_000;
/**
 * The job waits this long before any poller may take it: the request that wrote it runs it first, in
 * process (`runJob`); when that server dies, another one takes it from then on.
 */
const GENERATION_GRACE_MS = GENERATION_TIMEOUT_MS;
/**
 * A pending generation older than this has neither image nor refund although it should have: the
 * reconciliation names it. The grace, every attempt's timeout and backoff, and two maintenance rounds.
 */
export const GENERATION_SETTLE_MS = GENERATION_GRACE_MS + GENERATION_ATTEMPTS * (GENERATION_TIMEOUT_MS + GENERATION_BACKOFF_MS * 4) + 2 * 60_000;

export type GenerationRow = typeof generations.$inferSelect;

/**
 * The generations whose buyer's request is waiting for them on this app server (issue 29). A
 * generation that settles while its id is here is answered by that request; any other (its request
 * gave up, its client went away, its server died) is told to the buyer by a notification. The set is
 * read and changed only with the generation's row locked, so a settle and a request giving up cannot
 * pass each other.
 */
export type GenerationWaiters = Set<number>;

/**
 * Tells the buyer, once, that the generation settled after their request had ended: the bell (and the
 * live stream), leading to the order history where it can be downloaded. In the settling transaction.
 */
async function tellBuyer(tx: Db, g: GenerationRow): Promise<void> {
  if (g.userId === null || g.status === 'pending') return;
  const [told] = await tx
    .update(generations)
    .set({ buyerToldAt: sql`now()` })
    .where(and(eq(generations.id, g.id), isNull(generations.buyerToldAt)))
    .returning({ id: generations.id });
  if (!told) return;
  const text =
    g.status === 'done'
      ? 'Your generated image is ready: download it from your order history.'
      : g.status === 'refunded'
        ? 'Your image could not be generated. Your balance was refunded.'
        : 'Your image could not be generated. Nothing was charged.';
  await notify(tx, { userId: g.userId, kind: 'generation_finished', text, link: '/dashboard/orders', data: { generationId: g.id, status: g.status } });
}

/**
 * The request waiting for a generation stops waiting (it gives up, or its client went away): with the
 * row locked, so a settle either happened before (the answer returned here is settled, and the caller
 * delivers it, or, when its client is gone, it is told now) or happens after and tells the buyer.
 */
export async function stopWaiting(db: Db, waiters: GenerationWaiters, id: number, opts: { clientGone: boolean }): Promise<GenerationRow | undefined> {
  return db.transaction(async (tx) => {
    const [g] = await tx.select().from(generations).where(eq(generations.id, id)).for('update');
    waiters.delete(id);
    if (g && opts.clientGone) await tellBuyer(tx, g);
    return g;
  });
}

/** A buyer's generations, newest first (at most `limit`). */
export async function listGenerations(db: Db, userId: number, limit = 500) {
  return db
    .select({ g: generations, promptTitle: products.title })
    .from(generations)
    .leftJoin(products, eq(products.id, generations.promptId))
    .where(eq(generations.userId, userId))
    .orderBy(desc(generations.id))
    .limit(limit);
}

export const generationKey = (id: number, format: string) => `generations/${id}.${format === 'jpeg' ? 'jpg' : format}`;

/** Charges `priceMinor` (0: no charge), writes the generation and its job; all or nothing. May throw InsufficientFunds. */
export async function startGeneration(
  db: Db,
  input: { userId: number; promptId: number; promptText: string; format: ImageFormat; width: number; height: number; priceMinor: number },
): Promise<{ generationId: number; jobId: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(generations)
      .values({
        userId: input.userId,
        promptId: input.promptId,
        promptText: input.promptText,
        format: input.format,
        width: input.width,
        height: input.height,
        priceMinor: input.priceMinor,
        settleBy: sql`now() + make_interval(secs => ${GENERATION_SETTLE_MS / 1000})`,
      })
      .returning({ id: generations.id });
    const generationId = row!.id;
    if (input.priceMinor > 0) {
      // Lock order: the generation (a domain row, just written) first, the ledger accounts last (transfer).
      const buyer = await userAccountId(tx, input.userId);
      const revenue = await systemAccountId(tx, PLATFORM_REVENUE);
      const { transactionId } = await transfer(tx, {
        lines: [
          { accountId: buyer, amountMinor: -input.priceMinor },
          { accountId: revenue, amountMinor: input.priceMinor },
        ],
        kind: 'generation_charge',
        subject: { type: 'generation', id: generationId },
        reason: 'image generation',
        idempotency: `generation:${generationId}`,
      });
      await tx.update(generations).set({ chargeTransactionId: transactionId }).where(eq(generations.id, generationId));
    }
    const jobId = await enqueue(
      tx,
      GENERATION_JOB,
      { generationId },
      { singletonKey: `generation:${generationId}`, runAt: new Date(Date.now() + GENERATION_GRACE_MS) },
    );
    return { generationId, jobId: jobId! };
  });
}

export async function findGeneration(db: Db, id: number): Promise<GenerationRow | undefined> {
  const [row] = await db.select().from(generations).where(eq(generations.id, id));
  return row;
}

/**
 * One attempt: render, store, then mark done, unless the generation was settled meanwhile (then the
 * image is dropped). Its buyer is told when no request of theirs waits for it here.
 */
export async function renderGeneration(
  db: Db,
  generator: ImageGenerator,
  storage: Storage,
  id: number,
  signal?: AbortSignal,
  waiters: GenerationWaiters = new Set(),
) {
  const g = await findGeneration(db, id);
  if (!g || !generationLifecycle.can(g.status, 'done', 'system')) return;
  const image = await generator.generate({ prompt: g.promptText, width: g.width, height: g.height, format: g.format as ImageFormat, signal });
  const key = generationKey(id, image.format);
  await storage.putPrivate(key, image.data);
  const done = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(generations)
      .set({ status: 'done', resultKey: key, generator: image.generator, finishedAt: sql`now()` })
      .where(and(eq(generations.id, id), eq(generations.status, 'pending')))
      .returning();
    // Read with the row locked by the update: see GenerationWaiters.
    if (row && !waiters.has(id)) await tellBuyer(tx, row);
    return row;
  });
  if (!done) await storage.removePrivate(key);
}

/**
 * The last attempt failed: gives the charge back, once. The generation row is locked first (so an
 * attempt that finishes now cannot also mark it done), the ledger accounts last; the refund's
 * idempotency key makes a repeat a no-op even if the row update were lost.
 */
export async function refundGeneration(db: Db, id: number, waiters: GenerationWaiters = new Set()): Promise<void> {
  await db.transaction(async (tx) => {
    const [g] = await tx.select().from(generations).where(eq(generations.id, id)).for('update');
    if (!g) return;
    const paid = g.priceMinor > 0 && g.userId !== null;
    // A paid one is refunded, a free one (or one without a buyer) failed: the table's guards say which.
    if (generationLifecycle.refusal(g.status, paid ? 'refunded' : 'failed', 'system', { priceMinor: paid ? g.priceMinor : 0 }) !== null) return;
    let refundId: number | null = null;
    if (paid && g.userId !== null) {
      const buyer = await userAccountId(tx, g.userId);
      const revenue = await systemAccountId(tx, PLATFORM_REVENUE);
      const { transactionId } = await transfer(tx, {
        lines: [
          { accountId: revenue, amountMinor: -g.priceMinor },
          { accountId: buyer, amountMinor: g.priceMinor },
        ],
        kind: 'generation_refund',
        subject: { type: 'generation', id },
        reason: 'image generation refund',
        idempotency: `generation-refund:${id}`,
      });
      refundId = transactionId;
    }
    const [row] = await tx
      .update(generations)
      .set({ status: refundId !== null ? 'refunded' : 'failed', refundTransactionId: refundId, finishedAt: sql`now()` })
      .where(eq(generations.id, id))
      .returning();
    if (row && !waiters.has(id)) await tellBuyer(tx, row);
  });
}

/** Registers the generation job on this app's queue. */
export function registerGenerationJob(app: FastifyInstance, generator: ImageGenerator, waiters: GenerationWaiters) {
  app.jobs.register<{ generationId: number }>(
    GENERATION_JOB,
    async ({ generationId }, ctx) => {
      try {
        await renderGeneration(ctx.db, generator, app.storage, generationId, ctx.signal, waiters);
      } catch (err) {
        ctx.log.error({ err: { message: (err as Error).message }, generator: generator.name }, 'image generation failed');
        throw err;
      }
    },
    {
      attempts: GENERATION_ATTEMPTS,
      backoffMs: GENERATION_BACKOFF_MS,
      maxBackoffMs: GENERATION_BACKOFF_MS * 4,
      timeoutMs: GENERATION_TIMEOUT_MS,
      onFailed: ({ generationId }, ctx) => refundGeneration(ctx.db, generationId, waiters),
    },
  );
}
