import path from 'node:path';
import { BackupError, restoreBackup, writeBackup } from './backup';
import { ConfigError, loadConfig } from './config';

/**
 * `npm run backup -- --out FILE` / `npm run restore -- FILE` (scripts/backup.mjs, scripts/restore.mjs),
 * with the app's own environment (DATA_DIR, DATABASE_URL, DATABASE_LISTEN_URL, STORAGE_URL).
 */
const [command, ...args] = process.argv.slice(2);
/** npm runs scripts in the project folder; a file name is the caller's, relative to where they typed it. */
const here = process.env.INIT_CWD ?? process.cwd();
const usage = 'Usage: npm run backup -- --out FILE   |   npm run restore -- FILE';

async function main(): Promise<string> {
  const config = loadConfig();
  if (command === 'backup') {
    const at = args.indexOf('--out');
    const out = at >= 0 ? args[at + 1] : undefined;
    if (!out) throw new BackupError(`Name the file to write with --out. ${usage}`);
    return writeBackup(config, path.resolve(here, out));
  }
  if (command === 'restore') {
    const file = args.find((a) => !a.startsWith('-'));
    if (!file) throw new BackupError(`Name the backup file to restore. ${usage}`);
    return restoreBackup(config, path.resolve(here, file));
  }
  throw new BackupError(usage);
}

main().then(
  (said) => console.log(said),
  (err) => {
    if (err instanceof BackupError || err instanceof ConfigError) console.error(err.message);
    else console.error(`The ${command ?? 'backup'} failed: ${(err as Error).message?.split('\n')[0]}`);
    process.exit(1);
  },
);
