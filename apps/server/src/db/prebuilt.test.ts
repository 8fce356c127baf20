import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { asDb, rowsOf } from './client';
import { prebuilt } from './prebuilt';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let builds = 0;
const probe = prebuilt('prebuilt_probe', (v) => {
  builds++;
  return sql`select ${v('a')}::int + ${v('b')}::int as sum, ${v('a')}::int * ${'7'}::int as times, array_length(${v('list')}::bigint[], 1) as n`;
});

describe('statements built once (db/prebuilt)', () => {
  it('builds the text once and fills in each run’s values, arrays included', async () => {
    const first = rowsOf<{ sum: number; times: number; n: number }>(await t.app.db.execute(probe({ a: 2, b: 3, list: [1, 2, 3] })));
    const second = rowsOf<{ sum: number; times: number; n: number }>(await t.app.db.execute(probe({ a: 10, b: -4, list: [5] })));
    expect(first[0]).toEqual({ sum: 5, times: 14, n: 3 });
    expect(second[0]).toEqual({ sum: 6, times: 70, n: 1 });
    expect(builds).toBe(1);
  });

  it('refuses to run without a value it reads', () => {
    expect(() => probe({ a: 1, list: [] })).toThrow("The statement 'prebuilt_probe' reads a value it was not given: b.");
  });

  it('on PostgreSQL it is a named statement, parsed once per connection', async () => {
    const names = await t.app.db.transaction(async (txRaw) => {
      const tx = asDb(txRaw);
      await tx.execute(probe({ a: 1, b: 1, list: [1] }));
      await tx.execute(probe({ a: 2, b: 2, list: [2] }));
      return rowsOf<{ name: string }>(await tx.execute(sql`select name from pg_prepared_statements where name = 'prebuilt_probe'`)).map((r) => r.name);
    });
    // PGlite takes every statement unnamed (one connection, no pool); PostgreSQL keeps the name on the connection.
    expect(names).toEqual(t.app.database.kind === 'postgres' ? ['prebuilt_probe'] : []);
  });
});
