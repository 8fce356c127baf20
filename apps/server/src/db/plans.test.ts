import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { analyzeGrowingTables } from '../lib/analyze';
import { asDb, rowsOf } from './client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const plan = (result: unknown) => ((result as { rows: Record<string, string>[] }).rows ?? []).map((r) => Object.values(r)[0]).join('\n');

describe('query plans as tables grow', () => {
  it('a plan cached while a table was small is made again once the table has grown: the analyze job looks at its size', async () => {
    await t.app.db.execute(sql`create table plan_probe (id bigint primary key, v int)`);
    try {
      await t.app.db.transaction(async (txRaw) => {
        const tx = asDb(txRaw);
        // A table of one page with its statistics, as a fresh store's ledger is: a sequential scan is the cheaper plan then.
        await tx.execute(sql`insert into plan_probe select g, g from generate_series(1, 20) g`);
        await tx.execute(sql`analyze plan_probe`);
        await tx.execute(sql`prepare plan_probe_lookup(bigint) as select v from plan_probe where id = $1`);
        // Enough runs on the small table for PostgreSQL's default mode to settle on its generic plan.
        for (let i = 0; i < 8; i++) await tx.execute(sql.raw(`execute plan_probe_lookup(${i})`));
        expect(plan(await tx.execute(sql`explain execute plan_probe_lookup(4)`))).toContain('Seq Scan');
        // Unchanged size: nothing to analyse.
        expect(await analyzeGrowingTables(tx, ['plan_probe'])).toEqual([]);
        await tx.execute(sql`insert into plan_probe select g, g from generate_series(21, 50000) g`);
        // The job's look finds it grown and analyses it, and the cached plan is made again: an index scan.
        expect(await analyzeGrowingTables(tx, ['plan_probe'])).toEqual(['plan_probe']);
        const explained = plan(await tx.execute(sql`explain execute plan_probe_lookup(4242)`));
        expect(explained).toContain('Index Scan using plan_probe_pkey');
        expect(explained).not.toContain('Seq Scan');
        await tx.execute(sql`deallocate plan_probe_lookup`);
      });
    } finally {
      await t.app.db.execute(sql`drop table plan_probe`);
    }
  });

  it('issue 30, finding 7: one pool, planned as the rest of the app: a purchase’s transaction runs with no planner switch', async () => {
    // A transaction from the pool, as every purchase takes one (orders.routes.ts buyFromBalance): the
    // planner's settings are the pool's session defaults, the same for every statement of the app.
    const settings = await t.app.db.transaction(async (txRaw) => {
      const result = await asDb(txRaw).execute(
        sql`select current_setting('enable_seqscan') as seqscan, current_setting('enable_indexscan') as indexscan,
          current_setting('enable_nestloop') as nestloop, current_setting('plan_cache_mode') as plan_cache_mode`,
      );
      return rowsOf<Record<string, string>>(result)[0];
    });
    // No forced plan mode either: PostgreSQL's default, with statistics kept current (lib/analyze.ts).
    expect(settings).toEqual({ seqscan: 'on', indexscan: 'on', nestloop: 'on', plan_cache_mode: 'auto' });
    // On PostgreSQL: one pool writes (a replica, when configured, only reads); no second pool for purchases.
    if (t.app.database.pools) expect(t.app.database.pools().map((p) => p.name)).toEqual(['main']);
  });

  it('keeps planner statistics current: every table has statistics after start, and the job refreshes the growing ones', async () => {
    const tuples = async (table: string) =>
      Number(
        rowsOf<{ reltuples: number }>(await t.app.db.execute(sql`select reltuples from pg_class where relname = ${table} and relkind = 'r'`))[0]!.reltuples,
      );
    // -1: never analysed. After the migrations' ANALYZE, the tables the money path reads are known.
    for (const table of ['ledger_entries', 'ledger_accounts', 'order_items', 'orders']) expect(await tuples(table)).toBeGreaterThanOrEqual(0);
    await t.app.db.execute(sql`insert into jobs (name, state, finished_at) select 'plan.probe', 'done', now() from generate_series(1, 2000)`);
    expect(await analyzeGrowingTables(t.app.db)).toContain('jobs');
    expect(await tuples('jobs')).toBeGreaterThanOrEqual(2000);
    await t.app.db.execute(sql`delete from jobs where name = 'plan.probe'`);
  });
});
