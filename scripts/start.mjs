/**
 * `npm start`: builds when the sources changed since the last build (scripts/build-state.mjs), then
 * runs the server in this same process. A restart with nothing changed starts at once.
 *
 * Stopping: npm runs this script with `exec` (package.json), so npm's own PID forwards SIGTERM and
 * SIGINT straight to this process, and this process is the server: its handlers drain and exit within
 * SHUTDOWN_GRACE_MS + SHUTDOWN_TIMEOUT_MS. No child is left holding the port when npm is stopped.
 * Process managers and containers can skip npm altogether: `node apps/server/dist/server.js`.
 */
import { execSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsCurrent()) {
  console.log('The build is current: starting.');
} else {
  console.log('Building (the sources changed since the last build, or there is none)...');
  execSync('npm run build', { stdio: 'inherit', cwd: root });
}
process.chdir(root);
const { main } = await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
await main().catch((err) => {
  console.error(`Atelier could not start: ${err?.message?.split('\n')[0]}`);
  process.exit(1);
});
