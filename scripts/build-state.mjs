/**
 * Whether the build in apps/{web,server}/dist was made from the sources as they are now: a SHA-256 over
 * the path and content of every file that shapes the build, kept in apps/server/dist/build-hash by
 * `npm run build`. `npm start` builds only when it differs, and `npm run audit:web` the same way.
 * `node scripts/build-state.mjs --record` writes the hash (the last step of `npm run build`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'package-lock.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build.mjs',
  'apps/web/package.json',
  'apps/server/src',
  'apps/server/drizzle',
  'apps/server/assets',
  'apps/server/build.mjs',
  'apps/server/package.json',
  'packages/shared/src',
];
const OUTPUTS = ['apps/web/dist/index.html', 'apps/web/dist-ssr/entry-server.js', 'apps/server/dist/server.js'];
const HASH_FILE = path.join(root, 'apps/server/dist/build-hash');

function filesUnder(rel) {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && e.name !== 'dist')
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(rel, e.name)) : [path.join(rel, e.name)]));
}

/** The hash of every build input, as it is on disk now. */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    const full = path.join(root, input);
    if (!existsSync(full)) continue;
    const files = statSync(full).isDirectory() ? filesUnder(input) : [input];
    for (const file of files)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
  }
  return hash.digest('hex');
}

/** True when every output exists and was built from the current sources. */
export function buildIsCurrent() {
  if (!OUTPUTS.every((f) => existsSync(path.join(root, f))) || !existsSync(HASH_FILE)) return false;
  return readFileSync(HASH_FILE, 'utf8').trim() === sourceHash();
}

export function recordBuild() {
  writeFileSync(HASH_FILE, `${sourceHash()}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--record')) {
  recordBuild();
}
