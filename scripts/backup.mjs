/**
 * `npm run backup`: runs apps/server/src/backup-cli.ts with the app's environment (see backup.ts there).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'apps/server/src/backup-cli.ts');
const result = spawnSync(process.execPath, ['--import', 'tsx', cli, 'backup', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
