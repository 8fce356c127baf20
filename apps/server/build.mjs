// Bundles the server (and the shared contract it imports) into dist/server.js; npm packages stay external.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const sharedSrc = path.resolve('../../packages/shared/src');

/** @atelier/shared and @atelier/shared/{module} are TypeScript source in the repo: bundle them. */
const sharedSource = {
  name: 'atelier-shared-source',
  setup(b) {
    b.onResolve({ filter: /^@atelier\/shared(\/.*)?$/ }, (args) => {
      const sub = args.path.slice('@atelier/shared'.length);
      return { path: path.join(sharedSrc, sub ? `${sub.slice(1)}.ts` : 'index.ts') };
    });
  },
};

await build({
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [sharedSource],
  sourcemap: true,
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/server.js');

// The demo pictures (features/catalog/art), drawn once here so a first start only copies them. They are
// drawn again only when what draws them changed: the version is a hash of those sources and the fonts.
const artInputs = [
  'src/features/catalog/art',
  'src/features/catalog/catalog.seed.ts',
  'src/db/seed-content.ts',
  'src/db/seed-images.ts',
  'src/lib/previews.ts',
  'assets/fonts',
  'package.json',
];
function filesUnder(p) {
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs
    .readdirSync(p)
    .sort()
    .flatMap((name) => filesUnder(path.join(p, name)));
}
const hash = createHash('sha256');
for (const file of artInputs.flatMap(filesUnder)) hash.update(file).update(fs.readFileSync(file));
await build({
  entryPoints: ['src/features/catalog/art/build-cli.ts'],
  outfile: 'dist/demo-art-cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [sharedSource],
  logLevel: 'warning',
});
execFileSync(process.execPath, ['dist/demo-art-cli.js', 'dist/demo-art', hash.digest('hex').slice(0, 16)], { stdio: 'inherit' });
