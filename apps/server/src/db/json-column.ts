import { customType } from 'drizzle-orm/pg-core';

/**
 * A lone UTF-16 surrogate becomes U+FFFD, as it does on its way into a text column: JSON.stringify
 * writes it as an escape (`\ud800`) that jsonb refuses.
 */
const wellFormed = (_key: string, value: unknown) =>
  typeof value === 'string' ? value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD') : value;
/**
 * A jsonb value as both drivers (pg and PGlite) already give it: parsed. Drizzle's own `jsonb` parses
 * a string it reads once more, so a stored JSON string that looks like JSON ("2026", "true", "null",
 * "{}") came back as a number, a boolean, null or an object.
 */
export const jsonb = <T = unknown>(name: string) =>
  customType<{ data: T; driverData: unknown }>({
    dataType: () => 'jsonb',
    toDriver: (value) => JSON.stringify(value, wellFormed),
    fromDriver: (value) => value as T,
  })(name);
