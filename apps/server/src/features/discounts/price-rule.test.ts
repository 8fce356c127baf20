import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { discountedPrice } from './pricing';

/**
 * The discounted price is written twice on purpose: `discountedPrice` prices a purchase, and the SQL
 * function `discount_price` (migration 0044) prices product cards inside the catalogue's queries. This
 * test holds them to one rule: for any list price, kind and value, both give the same cents.
 */
const t = useTestApp();

describe('one discount price rule in TypeScript and SQL (issue 34)', () => {
  it('discountedPrice and discount_price agree to the cent, the 0.50 € floor included', async () => {
    const cases = fc.sample(
      fc.record({
        list: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 10_000_000 })),
        kind: fc.constantFrom('percent' as const, 'fixed' as const),
        value: fc.integer({ min: 1, max: 5_000 }),
      }),
      { numRuns: 500, seed: 34 },
    );
    const result = await t.app.db.execute(sql`
      select discount_price(c.list, c.kind, c.value) as price
      from unnest(${sql.param(cases.map((c) => c.list))}::bigint[], ${sql.param(cases.map((c) => c.kind))}::text[],
                  ${sql.param(cases.map((c) => (c.kind === 'percent' ? Math.min(c.value, 90) : c.value)))}::bigint[])
        with ordinality as c(list, kind, value, n)
      order by c.n`);
    const fromSql = rowsOf<{ price: string | number }>(result).map((r) => Number(r.price));
    const fromTs = cases.map((c) => discountedPrice(c.list, c.kind, c.kind === 'percent' ? Math.min(c.value, 90) : c.value));
    expect(fromSql).toEqual(fromTs);
  });
});
