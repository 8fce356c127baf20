import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A scratch PostgreSQL database for one bench case, on the server named by BENCH_DATABASE_URL
 * (default: the local server's postgres database); `drop()` removes it again.
 *
 * With `keep` (a fixed name, for a case whose data takes minutes to build) the database is reused
 * when it exists (`reused: true`) and `drop()` leaves it in place; drop it by hand when done.
 */
export async function createScratchDatabase(opts: { keep?: string } = {}): Promise<{ url: string; reused: boolean; drop: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (opts.keep !== undefined && !/^atelier_bench_[a-z0-9_]+$/.test(opts.keep)) throw new Error(`a kept bench database is named atelier_bench_*: ${opts.keep}`);
  const name = opts.keep ?? `atelier_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const existing = await admin.query('select 1 from pg_database where datname = $1', [name]);
  const reused = opts.keep !== undefined && (existing.rowCount ?? 0) > 0;
  if (!reused) await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    reused,
    drop: async () => {
      if (opts.keep === undefined) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
