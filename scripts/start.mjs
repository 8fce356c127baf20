/**
 * `npm start`: builds when the sources changed since the last build (scripts/build-state.mjs), then
 * runs the server. A restart with nothing changed starts at once. Signals are passed to the server,
 * which shuts down gracefully, and its exit code is this script's.
 */
import { execSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsCurrent()) {
  console.log('The build is current: starting.');
} else {
  console.log('Building (the sources changed since the last build, or there is none)...');
  execSync('npm run build', { stdio: 'inherit', cwd: root });
}
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], { stdio: 'inherit', cwd: root });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
