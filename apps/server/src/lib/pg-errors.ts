/** A PostgreSQL error as the drivers give it: the SQLSTATE, and what it names. */
export type PgError = { code?: string; constraint?: string; detail?: string; message?: string; cause?: unknown };

/**
 * The one walker of an error's chain (issue 18: one copy of each rule): the query builder wraps the
 * driver's error ("Failed query: …") and keeps it as `cause`, so the PostgreSQL error may sit a few
 * levels down. Returns the first error in the chain that `match` accepts, at most 4 deep.
 */
export function pgErrorIn(err: unknown, match: (e: PgError) => boolean): PgError | null {
  for (let e = err as PgError | undefined, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if (match(e)) return e;
    e = e.cause as PgError | undefined;
  }
  return null;
}

/** A unique index refused the row (23505); with `constraint`, only that index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return !!pgErrorIn(err, (e) => e.code === '23505' && (!constraint || e.constraint === constraint || String(e.message ?? '').includes(constraint)));
}
