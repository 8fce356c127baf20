import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { products } from '../../db/schema';
import { describeFile } from '../../lib/file-meta';
import type { Storage } from '../../lib/storage';

/**
 * Files measured after the fact (issue 31 item 7): an upload is measured when it arrives
 * (features/offers); products from before migration 0046 and the demo works are measured by this
 * job, a batch at a time, so a product page can say what a buyer gets.
 */
export const DESCRIBE_FILES_JOB = 'catalog.describe_files';
const BATCH = 50;
/** Pixels are read from files up to this size; a larger file still gets its format and size. */
const MAX_READ_BYTES = 64 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Measures up to a batch of unmeasured originals; returns how many were written. */
export async function describeUnmeasuredFiles(db: Db, storage: Storage): Promise<number> {
  const rows = await db
    .select({ id: products.id, originalPath: products.originalPath, originalName: products.originalName })
    .from(products)
    .where(and(isNull(products.fileMeta), isNotNull(products.originalPath), inArray(products.productType, ['image', 'doc'])))
    .orderBy(asc(products.id))
    .limit(BATCH);
  let written = 0;
  for (const row of rows) {
    const name = row.originalName ?? row.originalPath!;
    const info = await storage.statPrivate(row.originalPath!);
    // A missing original has nothing to say (the download logs it); the row stays unmeasured.
    if (!info) continue;
    let meta: Awaited<ReturnType<typeof describeFile>>;
    if (info.size > MAX_READ_BYTES) {
      meta = { ...(await describeFile(name, Buffer.alloc(0))), bytes: info.size };
    } else {
      const file = await storage.openPrivate(row.originalPath!);
      if (!file) continue;
      meta = await describeFile(name, await readAll(file.stream));
    }
    const done = await db
      .update(products)
      .set({ fileMeta: meta })
      .where(and(eq(products.id, row.id), isNull(products.fileMeta)))
      .returning({ id: products.id });
    written += done.length;
  }
  return written;
}

/** Registers the job, run every hour and once soon after start. */
export function scheduleFileDescriptions(app: FastifyInstance) {
  app.jobs.register(DESCRIBE_FILES_JOB, async (_payload, ctx) => {
    await describeUnmeasuredFiles(ctx.db, app.storage);
  });
  app.jobs.schedule(DESCRIBE_FILES_JOB, 3600);
}
