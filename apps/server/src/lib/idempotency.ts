import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { asDb, type Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { validationError } from './app-error';

class Replay extends Error {}

/** The request's Idempotency-Key header (1-200 visible characters), or undefined. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw validationError({ 'Idempotency-Key': 'The Idempotency-Key header must be 1 to 200 visible ASCII characters.' });
  }
  return key;
}

/**
 * Runs `work` in one database transaction. With a key, the key is claimed in that same transaction
 * and the answer stored with it: a retry with the same key (even one racing the first) waits for the
 * first to commit and gets its answer, and nothing is charged twice. A failed first attempt stores
 * nothing, so a retry runs again. The same key on another call or body is refused.
 */
export async function runIdempotent<T>(
  db: Db,
  opts: { userId: number; key: string | undefined; scope: string; body: unknown },
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  if (!opts.key) return db.transaction((tx) => work(asDb(tx)));
  const key = opts.key;
  const fingerprint = createHash('sha256')
    .update(`${opts.scope}\n${JSON.stringify(opts.body ?? null)}`)
    .digest('hex');
  try {
    return await db.transaction(async (txRaw) => {
      const tx = asDb(txRaw);
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId: opts.userId, key, fingerprint })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (!claimed.length) throw new Replay();
      const answer = await work(tx);
      await tx
        .update(idempotencyKeys)
        .set({ response: answer as object })
        .where(and(eq(idempotencyKeys.userId, opts.userId), eq(idempotencyKeys.key, key)));
      return answer;
    });
  } catch (err) {
    if (!(err instanceof Replay)) throw err;
  }
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, opts.userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!stored || stored.fingerprint !== fingerprint || stored.response == null) {
    throw validationError({ 'Idempotency-Key': 'This Idempotency-Key was already used for a different request.' });
  }
  return stored.response as T;
}

/** The fingerprint of a key closed by `closeIdempotencyKey`: no request body hashes to it. */
const CLOSED = 'closed by lookup';

/**
 * What became of a request sent with `key` (issue 31: a purchase that lost its connection). The key is
 * closed first: a request with it still on its way either committed before (its answer is returned)
 * or is refused afterwards, so "nothing happened" stays true. Only the user's own keys are read.
 */
export async function closeIdempotencyKey(db: Db, userId: number, key: string): Promise<{ response: unknown } | null> {
  // Waits for a transaction that holds the same key to end (the primary key is unique), then sees its row.
  await db.insert(idempotencyKeys).values({ userId, key, fingerprint: CLOSED }).onConflictDoNothing();
  const [stored] = await db
    .select({ fingerprint: idempotencyKeys.fingerprint, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!stored || stored.fingerprint === CLOSED || stored.response == null) return null;
  return { response: stored.response };
}
