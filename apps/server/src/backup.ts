import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Config } from './config';
import { type Database, openDatabase, restoreEmbedded } from './db/client';

/**
 * `npm run backup -- --out FILE` and `npm run restore -- FILE`: one tar file holding the database
 * (the embedded database's data folder, or `pg_dump`'s custom format), the stored files when they
 * live in DATA_DIR, and the generated session secret (which also keys the secrets kept encrypted in
 * the database). The file is written readable by its owner only.
 */
const run = promisify(execFile);

const MANIFEST = 'atelier-backup.json';
const EMBEDDED_DUMP = 'database.tar.gz';
const PG_DUMP = 'database.dump';
const FILES = 'storage';
const SECRET = 'session-secret';
/** The running server's end of an embedded backup, inside DATA_DIR: only who may read DATA_DIR reaches it. */
export const BACKUP_SOCKET = 'backup.sock';

type Manifest = {
  format: 1;
  created_at: string;
  database: 'embedded' | 'postgres';
  /** `included`: under storage/; otherwise a note saying where they are. */
  files: 'included' | { note: string };
};

/** Something the operator can fix, said in one sentence. */
export class BackupError extends Error {}

/**
 * The running server (embedded database only) answers each connection on DATA_DIR/backup.sock with a
 * consistent copy of its database, so a backup needs no stop. Returns the function that stops it.
 */
export async function serveEmbeddedBackups(dataDir: string, database: Database): Promise<() => Promise<void>> {
  const dump = database.dumpEmbedded;
  if (!dump) return async () => {};
  const socketPath = path.join(dataDir, BACKUP_SOCKET);
  // A socket left by a server that did not stop cleanly; only one server can hold an embedded database.
  await unlink(socketPath).catch(() => {});
  const server = createServer((socket) => {
    socket.on('error', () => {});
    dump()
      .then(async (blob) => socket.end(Buffer.from(await blob.arrayBuffer())))
      .catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      unlink(socketPath).catch(() => {});
    });
}

/** The embedded database from the running server, or null when no server answers on the socket. */
async function dumpFromRunningServer(dataDir: string): Promise<Buffer | null> {
  const socketPath = path.join(dataDir, BACKUP_SOCKET);
  if (!existsSync(socketPath)) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = createConnection(socketPath);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      if (all.length === 0) reject(new BackupError('The running server could not copy its database; see its log.'));
      else resolve(all);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file with no server behind it: the app is stopped.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      else reject(err);
    });
  });
}

async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

const directUrl = (config: Config) => config.database.listenUrl ?? config.databaseUrl!;

/** Writes the backup of what `config` names to `out`; says what it holds. */
export async function writeBackup(config: Config, out: string): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), 'atelier-backup-'));
  try {
    const manifest: Manifest = {
      format: 1,
      created_at: new Date().toISOString(),
      database: config.databaseUrl ? 'postgres' : 'embedded',
      files:
        config.storage.kind === 'local'
          ? 'included'
          : { note: 'The stored files are in an S3 bucket (STORAGE_URL) and are not in this file: back the bucket up with its own versioning or replication.' },
    };
    let how: string;
    if (config.databaseUrl) {
      // pg_dump takes one snapshot: a consistent copy while the app runs. Directly, never through PgBouncer.
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${path.join(work, PG_DUMP)}`, directUrl(config)]);
      how = 'pg_dump of the PostgreSQL database';
    } else {
      const pgliteDir = path.join(config.dataDir, 'db');
      let dump = await dumpFromRunningServer(config.dataDir);
      how = 'the embedded database, copied by the running server';
      if (!dump) {
        if (await isEmptyDir(pgliteDir)) throw new BackupError(`There is no database in ${pgliteDir} to back up: is DATA_DIR right?`);
        // The app is stopped: open the folder ourselves (nothing else may hold it meanwhile).
        const database = await openDatabase({ pgliteDir });
        try {
          dump = Buffer.from(await (await database.dumpEmbedded!()).arrayBuffer());
        } finally {
          await database.close();
        }
        how = 'the embedded database of the stopped app';
      }
      await writeFile(path.join(work, EMBEDDED_DUMP), dump);
    }
    await writeFile(path.join(work, MANIFEST), JSON.stringify(manifest, null, 2));
    // The files are read after the database: a file whose row is in the copy was stored before it.
    const parts = [MANIFEST, config.databaseUrl ? PG_DUMP : EMBEDDED_DUMP];
    const fromDataDir: string[] = [];
    if (manifest.files === 'included' && existsSync(path.join(config.dataDir, FILES))) fromDataDir.push(FILES);
    if (existsSync(path.join(config.dataDir, SECRET))) fromDataDir.push(SECRET);
    const partial = `${out}.partial`;
    await run('tar', ['-cf', partial, '-C', work, ...parts, ...(fromDataDir.length ? ['-C', config.dataDir, ...fromDataDir] : [])]);
    await chmod(partial, 0o600);
    await rename(partial, out);
    const size = (await stat(out)).size;
    const files = manifest.files === 'included' ? 'the stored files' : 'no files (they are in S3)';
    return `Wrote ${out} (${(size / 1024 / 1024).toFixed(1)} MB): ${how}, ${files}${fromDataDir.includes(SECRET) ? ' and the session secret' : ''}.`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Fills the empty database and DATA_DIR `config` names from `file`; refuses anything not empty. */
export async function restoreBackup(config: Config, file: string): Promise<string> {
  if (!existsSync(file)) throw new BackupError(`There is no backup file at ${file}.`);
  const work = await mkdtemp(path.join(tmpdir(), 'atelier-restore-'));
  try {
    await run('tar', ['-xf', file, '-C', work]);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(path.join(work, MANIFEST), 'utf8')) as Manifest;
    } catch {
      throw new BackupError(`${file} is not an Atelier backup (it has no ${MANIFEST}).`);
    }
    if (manifest.database === 'postgres' && !config.databaseUrl) {
      throw new BackupError('This backup holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it into.');
    }
    if (manifest.database === 'embedded' && config.databaseUrl) {
      throw new BackupError('This backup holds an embedded database: unset DATABASE_URL to restore it into an empty DATA_DIR.');
    }
    const filesDir = path.join(config.dataDir, FILES);
    const hasFiles = existsSync(path.join(work, FILES));
    const pgliteDir = path.join(config.dataDir, 'db');
    if (manifest.database === 'embedded' && !(await isEmptyDir(pgliteDir))) {
      throw new BackupError(
        `${pgliteDir} already holds a database: restore fills only an empty DATA_DIR. Point DATA_DIR at a new folder, or move that one away.`,
      );
    }
    if (manifest.database === 'postgres') {
      const client = new pg.Client({ connectionString: directUrl(config) });
      await client.connect();
      const { rows } = await client
        .query<{ n: string }>(`select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`)
        .finally(() => client.end());
      if (Number(rows[0]!.n) > 0) {
        throw new BackupError(
          `The database in ${config.database.listenUrl ? 'DATABASE_LISTEN_URL' : 'DATABASE_URL'} already has tables: restore fills only an empty database. Create a new one (createdb) and point the URL at it.`,
        );
      }
    }
    if (hasFiles && config.storage.kind === 'local' && !(await isEmptyDir(filesDir))) {
      throw new BackupError(`${filesDir} already holds files: restore fills only an empty DATA_DIR. Point DATA_DIR at a new folder, or move that one away.`);
    }
    if (manifest.database === 'postgres') {
      await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${directUrl(config)}`, path.join(work, PG_DUMP)]);
    } else {
      await restoreEmbedded(pgliteDir, new Blob([await readFile(path.join(work, EMBEDDED_DUMP))]));
    }
    const said: string[] = [manifest.database === 'postgres' ? 'the PostgreSQL database' : `the embedded database into ${config.dataDir}`];
    if (hasFiles) {
      if (config.storage.kind === 'local') {
        await mkdir(config.dataDir, { recursive: true });
        await rm(filesDir, { recursive: true, force: true });
        await rename(path.join(work, FILES), filesDir).catch(async () => {
          // Another file system (tmp on its own mount): copy instead.
          await run('cp', ['-a', path.join(work, FILES), filesDir]);
        });
        said.push('the stored files');
      } else {
        said.push('no files (STORAGE_URL names a bucket: copy storage/ from the backup into it yourself)');
      }
    } else if (typeof manifest.files === 'object') {
      said.push(`no files: ${manifest.files.note}`);
    }
    // The generated secret also decrypts secrets kept in the database; a folder without a database has no sessions to lose.
    if (existsSync(path.join(work, SECRET))) {
      await copyFile(path.join(work, SECRET), path.join(config.dataDir, SECRET));
      await chmod(path.join(config.dataDir, SECRET), 0o600);
      said.push('the session secret');
    }
    return `Restored ${said.join(', ')} from ${file} (made ${manifest.created_at}).`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
