import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A streaming replica of the local PostgreSQL (Debian's packages, version 15) on a second port, made
 * with pg_basebackup into a temporary folder and run by pg_ctl as the postgres user, as the README's
 * 'A read replica' section describes. Needs root (CI runs as root): it adds the replication line to
 * the primary's pg_hba.conf once and reloads it; wal_level replica is PostgreSQL's default.
 */
const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export type Replica = { url: string; stop: () => void };

function asPostgres(command: string, args: string[]) {
  return execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startReplica(primaryUrl: string, port: number): Promise<Replica> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  try {
    const setting = async (name: string) => (await primary.query(`select current_setting($1) as v`, [name])).rows[0].v as string;
    if ((await setting('wal_level')) === 'minimal') throw new Error('the primary runs with wal_level=minimal: set it to replica and restart it');
    if (Number(await setting('max_wal_senders')) < 1) throw new Error('the primary has max_wal_senders=0: raise it and restart it');
    const hbaFile = await setting('hba_file');
    const hba = readFileSync(hbaFile, 'utf8');
    if (!/^\s*host\s+replication\s+\S+\s+127\.0\.0\.1\/32\s+trust/m.test(hba)) {
      appendFileSync(hbaFile, '\n# Atelier CI: a streaming replica on this machine (e2e/pg-replica.ts)\nhost replication all 127.0.0.1/32 trust\n');
      await primary.query('select pg_reload_conf()');
    }
  } finally {
    await primary.end();
  }
  const work = mkdtempSync(path.join(tmpdir(), 'atelier-replica-'));
  chownSync(work, uidOf('postgres'), gidOf('postgres'));
  const dataDir = path.join(work, 'data');
  const primaryHost = new URL(primaryUrl);
  asPostgres('pg_basebackup', ['-h', primaryHost.hostname, '-p', primaryHost.port || '5432', '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream']);
  // Debian keeps the configuration in /etc, outside the data folder: the replica gets its own.
  const own = (file: string, text: string) => {
    writeFileSync(path.join(dataDir, file), text);
    chownSync(path.join(dataDir, file), uidOf('postgres'), gidOf('postgres'));
  };
  own(
    'postgresql.conf',
    `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${work}'\nhot_standby = on\nmax_connections = 100\nshared_buffers = 32MB\n`,
  );
  own('pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  own('pg_ident.conf', '');
  asPostgres('pg_ctl', ['-D', dataDir, '-l', path.join(work, 'replica.log'), '-w', '-t', '60', 'start']);
  const url = new URL(primaryUrl);
  url.port = String(port);
  return {
    url: url.toString(),
    stop: () => {
      try {
        asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}

function uidOf(user: string) {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gidOf(user: string) {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
