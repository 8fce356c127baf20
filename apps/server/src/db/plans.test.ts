import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Db } from './client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const plan = (result: unknown) => ((result as { rows: Record<string, string>[] }).rows ?? []).map((r) => Object.values(r)[0]).join('\n');

describe('query plans as tables grow', () => {
  it('plans a statement prepared on a small table again once the table is large (no cached sequential scan)', async () => {
    await t.app.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(sql`create temporary table plan_probe (id bigint primary key, v int) on commit drop`);
      // A table of one page with its statistics, as a fresh store's ledger is: a sequential scan is the cheaper plan then.
      await tx.execute(sql`insert into plan_probe select g, g from generate_series(1, 20) g`);
      await tx.execute(sql`analyze plan_probe`);
      await tx.execute(sql`prepare plan_probe_lookup(bigint) as select v from plan_probe where id = $1`);
      // Enough runs on the small table for PostgreSQL's default mode to settle on its generic plan.
      for (let i = 0; i < 8; i++) await tx.execute(sql.raw(`execute plan_probe_lookup(${i})`));
      await tx.execute(sql`insert into plan_probe select g, g from generate_series(21, 50000) g`);
      const explained = plan(await tx.execute(sql`explain execute plan_probe_lookup(4242)`));
      expect(explained).toContain('Index Scan using plan_probe_pkey');
      expect(explained).not.toContain('Seq Scan');
      await tx.execute(sql`deallocate plan_probe_lookup`);
    });
  });

  it('the keyed handle plans a key lookup once, as an index scan that stays right as the table grows', async () => {
    const onPostgres = t.app.database.kind === 'postgres';
    await t.app.database.keyed.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(sql`create temporary table keyed_probe (id bigint primary key, v int) on commit drop`);
      await tx.execute(sql`insert into keyed_probe select g, g from generate_series(1, 20) g`);
      await tx.execute(sql`analyze keyed_probe`);
      await tx.execute(sql`prepare keyed_probe_lookup(bigint) as select v from keyed_probe where id = $1`);
      const small = plan(await tx.execute(sql`explain execute keyed_probe_lookup(4)`));
      await tx.execute(sql`insert into keyed_probe select g, g from generate_series(21, 50000) g`);
      const large = plan(await tx.execute(sql`explain execute keyed_probe_lookup(4242)`));
      // PGlite plans each call (keyed is `db` there): a sequential scan of the small table is right then.
      for (const explained of onPostgres ? [small, large] : [large]) {
        expect(explained).toContain('Index Scan using keyed_probe_pkey');
        expect(explained).not.toContain('Seq Scan');
        // PostgreSQL: one generic plan (the key stays a parameter); PGlite plans each call, as `db` does.
        expect(explained).toContain(onPostgres ? 'Index Cond: (id = $1)' : 'Index Cond: (id = ');
      }
      if (onPostgres) expect(small).toBe(large);
      await tx.execute(sql`deallocate keyed_probe_lookup`);
    });
  });
});
