import { eq, inArray, sql } from 'drizzle-orm';
import { analyzeAll } from '../lib/analyze';
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
  /**
   * The rows came from the build's database template (db/template.ts), made on another machine at
   * `seededAt`: give this installation what must be its own (fresh random secrets, today's dates).
   */
  adopt?: (tx: Db, seededAt: Date) => Promise<void>;
};

/** Databases seeded before per-feature markers had one marker for everything these seeders now do. */
const LEGACY_MARKER = 'demo_seeded_at';
const markerKey = (name: string) => `seed:${name}`;

export type SeedRun = { ran: string[] };

export async function runSeeders(
  db: Db,
  seeders: Seeder[],
  opts: { storage: Storage; demo: boolean; imageSize?: SeedImageSize; legacyNames?: string[]; files?: boolean },
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
    // `files: false` makes the build's database template: the files come at adoption (adoptTemplate).
    if (opts.files !== false) await seeder.prepare?.(ctx);
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
  // Statistics for the rows the seeders wrote (issue 30).
  if (ran.length) await analyzeAll(db);
  return { ran };
}

/**
 * A database copied from the build's template already has these seeders' rows and markers: write
 * their files (the same deterministic keys `runSeeders` writes) and let each make its rows this
 * installation's own. Seeders the template lacks are left to `runSeeders`, which runs next.
 */
export async function adoptTemplate(db: Db, seeders: Seeder[], opts: { storage: Storage; ran: string[]; imageSize?: SeedImageSize }): Promise<void> {
  const ctx: SeedContext = { storage: opts.storage, imageSize: opts.imageSize ?? 'full' };
  const adopted = seeders.filter((s) => opts.ran.includes(s.name));
  if (adopted.length === 0) return;
  const markers = await db
    .select()
    .from(siteSettings)
    .where(
      inArray(
        siteSettings.key,
        adopted.map((s) => markerKey(s.name)),
      ),
    );
  const seededAt = new Map(markers.map((m) => [m.key, new Date(String(m.value))]));
  await Promise.all(adopted.map((s) => s.prepare?.(ctx)));
  await db.transaction(async (tx) => {
    for (const s of adopted) {
      const at = seededAt.get(markerKey(s.name));
      if (s.adopt && at && !Number.isNaN(at.getTime())) await s.adopt(tx, at);
    }
  });
}
