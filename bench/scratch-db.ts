import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A scratch PostgreSQL database for one bench case, on the server named by BENCH_DATABASE_URL
 * (default: the local server's postgres database); `drop()` removes it again.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `atelier_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
