import { describe, expect, it } from 'vitest';
import { isUniqueViolation, pgErrorIn } from './pg-errors';
import { escapeHtml, slugify } from './text';

describe('one copy of each rule (issue 18)', () => {
  it('escapes every character that could open markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });

  it('makes an address part of a title, and cuts it where asked', () => {
    expect(slugify('  Café au Lait — Morning Set! ')).toBe('cafe-au-lait-morning-set');
    expect(slugify('snake_case and  spaces', 10)).toBe('snake-case');
  });

  it('finds the PostgreSQL error under the query builder’s wrapping, and only a unique violation of the index named', () => {
    const driver = { code: '23505', constraint: 'user_products_pk', message: 'duplicate key value violates unique constraint "user_products_pk"' };
    const wrapped = Object.assign(new Error('Failed query: insert …'), { cause: driver });
    expect(isUniqueViolation(wrapped)).toBe(true);
    expect(isUniqueViolation(wrapped, 'user_products_pk')).toBe(true);
    expect(isUniqueViolation(wrapped, 'orders_pk')).toBe(false);
    expect(isUniqueViolation(Object.assign(new Error('x'), { cause: { code: '23503' } }))).toBe(false);
    expect(isUniqueViolation('not an error')).toBe(false);
    expect(pgErrorIn(wrapped, (e) => e.code === 'LD001')).toBeNull();
  });
});
