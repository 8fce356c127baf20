import { z } from 'zod';
import { CATALOG_MAX_PAGE_SIZE } from './constants';
import { msg } from './messages';
import { PLAIN_DECIMAL } from './money';

/**
 * Building blocks for every value a client sends (path, query, body). Routes declare their inputs
 * with these, so malformed input is refused once, at the boundary, with a message naming the field,
 * instead of reaching PostgreSQL and failing there. Their messages are coded (messages.ts): the
 * server sends the English with the key, the browser's form shows it in the page's language.
 */

/** The largest id a client may name: ids are bigint in the database but travel as JS numbers. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** PostgreSQL cannot store a NUL character in text, and no person types one. */
export function hasNulCharacter(value: string): boolean {
  return value.includes('\u0000');
}

export const nulCharacterMessage = (label: string) => msg('field.nul', { field: label });

/**
 * Text from a client: any string, but never one holding a NUL character. Chain `.trim()`, `.min()`,
 * `.max()` on it as on `z.string()`.
 */
export function text(label: string, params?: { error?: string }) {
  return z.string(params ?? { error: msg('field.not_text', { field: label }) }).refine((value) => !hasNulCharacter(value), nulCharacterMessage(label));
}

/** A short required text: trimmed, 1 to `max` characters, with the messages of SPEC §5. */
export function requiredText(label: string, max = 100) {
  const required = msg('field.required', { field: label });
  return text(label, { error: required })
    .trim()
    .min(1, required)
    .max(max, msg('field.too_long', { field: label, max }));
}

/** An id in a path or query: a whole number from 1 up to MAX_ID ("9223372036854775808" is refused, not sent to the database). */
export function idParam(label: string) {
  const message = `The ${label} must be a whole number from 1 to ${MAX_ID}.`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);
}

/**
 * A path segment naming an item by its slug (or nickname) or by its numeric id: trimmed text of 1 to
 * `max` characters. Which of the two it is decides `idFromKey`.
 */
export function slugOrIdParam(label: string, max = 200) {
  return text(label)
    .trim()
    .min(1, msg('field.required_short', { field: label }))
    .max(max, msg('field.too_long', { field: label, max }));
}

/**
 * The id a slug-or-id key names, or null when it can only be a slug: digits only, and within the
 * range of ids (a longer run of digits is compared as a slug, never cast to bigint).
 */
export function idFromKey(key: string): number | null {
  if (!/^\d{1,16}$/.test(key)) return null;
  const id = Number(key);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * An amount of money from a client: a JSON number or a string holding a plain decimal ("12.50"),
 * nothing looser (no "0x10", no " 7 ", no [5], no exponent). It arrives as that exact decimal text,
 * for `decimalToMinor` to read without a float.
 */
export function decimalAmount(label = 'amount') {
  const message = `Please enter the ${label} as a number such as 12.50: digits, and a point before the decimals.`;
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    if (typeof value === 'number' && value < 0) {
      ctx.addIssue({ code: 'custom', message: msg('field.above_zero', { field: label }) });
      return z.NEVER;
    }
    const text = typeof value === 'number' ? String(value) : value;
    if (!PLAIN_DECIMAL.test(text) || text.length > 30) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return text;
  });
}

/**
 * A number from a client, kept a number and checked by `schema`: a JSON number, or a string holding a
 * plain decimal ("12.50"; with `signed`, also "-12.50"). Nothing looser: no [5], "0x10", " 7 ",
 * "1e3", true or "" (each fails `schema` with its message).
 */
export function plainNumber<S extends z.ZodNumber>(schema: S, opts: { signed?: boolean } = {}) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const digits = opts.signed && value.startsWith('-') ? value.slice(1) : value;
    return PLAIN_DECIMAL.test(digits) && value.length <= 30 ? Number(value) : value;
  }, schema);
}

/** `?page=`: a whole number from 1 (the first page when absent). */
export const pageParam = z.coerce
  .number({ error: 'The page must be a whole number from 1.' })
  .int('The page must be a whole number from 1.')
  .min(1, 'The page must be a whole number from 1.')
  .max(100_000, 'The page is too large.')
  .default(1);

/** `?limit=`: how many to a page, from 1 to the catalogue's largest page (`fallback` when absent). */
export function limitParam(fallback: number) {
  const message = `The limit must be a whole number from 1 to ${CATALOG_MAX_PAGE_SIZE}.`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(CATALOG_MAX_PAGE_SIZE, message).default(fallback);
}
