import { eq, inArray, sql } from 'drizzle-orm';
import type { Storage } from '../lib/storage';
import type { Db } from './client';
import { siteSettings } from './schema';
import type { SeedImageSize } from './seed-images';

export type SeedContext = { storage: Storage; imageSize: SeedImageSize };

/**
 * One feature's initial rows. Each seeder has its own marker, so a seeder added later still reaches a
 * database created before it existed; `demo` seeders run only when demo seeding is on.
 */
export type Seeder = {
  name: string;
  demo: boolean;
  /** Files first (deterministic keys, safe to write again), outside the transaction. */
  prepare?: (ctx: SeedContext) => Promise<void>;
  run: (tx: Db, ctx: SeedContext) => Promise<void>;
};

/** Databases seeded before per-feature markers had one marker for everything these seeders now do. */
const LEGACY_MARKER = 'demo_seeded_at';
const markerKey = (name: string) => `seed:${name}`;

export type SeedRun = { ran: string[] };

export async function runSeeders(
  db: Db,
  seeders: Seeder[],
  opts: { storage: Storage; demo: boolean; imageSize?: SeedImageSize; legacyNames?: string[] },
): Promise<SeedRun> {
  const ctx: SeedContext = { storage: opts.storage, imageSize: opts.imageSize ?? 'full' };
  const keys = [LEGACY_MARKER, ...seeders.map((s) => markerKey(s.name))];
  const present = new Set((await db.select({ key: siteSettings.key }).from(siteSettings).where(inArray(siteSettings.key, keys))).map((r) => r.key));
  const legacy = present.has(LEGACY_MARKER);
  const ran: string[] = [];
  for (const seeder of seeders) {
    if (present.has(markerKey(seeder.name))) continue;
    if (legacy && opts.legacyNames?.includes(seeder.name)) {
      await db
        .insert(siteSettings)
        .values({ key: markerKey(seeder.name), value: 'legacy' })
        .onConflictDoNothing();
      continue;
    }
    if (seeder.demo && !opts.demo) continue;
    await seeder.prepare?.(ctx);
    // The rows and the marker commit together: a crash never leaves half a seeder's data.
    await db.transaction(async (tx) => {
      // Two app servers starting at once: the second waits here, then sees the marker.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${markerKey(seeder.name)}))`);
      const [taken] = await tx
        .select()
        .from(siteSettings)
        .where(eq(siteSettings.key, markerKey(seeder.name)))
        .limit(1);
      if (taken) return;
      await seeder.run(tx, ctx);
      await tx.insert(siteSettings).values({ key: markerKey(seeder.name), value: new Date().toISOString() });
    });
    ran.push(seeder.name);
  }
  return { ran };
}
