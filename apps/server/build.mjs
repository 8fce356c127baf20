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

/** Every bundle here: one ESM file for Node 20, packages left to node_modules, shared sources compiled in. */
const nodeBundle = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', plugins: [sharedSource], logLevel: 'warning' };

// The database templates (src/db/template.ts) are keyed by everything that shapes a new database:
// the code that migrates and seeds it (bundled, so every file it imports counts), the migrations and
// the versions of PGlite and Drizzle. The server is built with that key and uses only a template with it.
await build({
  entryPoints: ['src/db/template-cli.ts'],
  outfile: 'dist/db-template-cli.js',
  ...nodeBundle,
});
const templateHash = createHash('sha256').update(fs.readFileSync('dist/db-template-cli.js'));
for (const file of filesUnder('drizzle')) templateHash.update(file).update(fs.readFileSync(file));
for (const pkg of ['@electric-sql/pglite', 'drizzle-orm']) {
  templateHash.update(pkg).update(JSON.parse(fs.readFileSync(installedPackageJson(pkg), 'utf8')).version);
}
const templateVersion = templateHash.digest('hex').slice(0, 16);

await build({
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  ...nodeBundle,
  sourcemap: true,
  define: { __ATELIER_DB_TEMPLATE_VERSION__: JSON.stringify(templateVersion) },
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
/** node_modules/{name}/package.json nearest to this folder, as Node would find the package. */
function installedPackageJson(name) {
  for (let dir = path.resolve('.'); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed`);
  }
}
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
  ...nodeBundle,
});
execFileSync(process.execPath, ['dist/demo-art-cli.js', 'dist/demo-art', hash.digest('hex').slice(0, 16)], { stdio: 'inherit' });
execFileSync(process.execPath, ['dist/db-template-cli.js', 'dist/db-template', templateVersion], { stdio: 'inherit' });
