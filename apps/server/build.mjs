// Bundles the server (and the shared contract it imports) into dist/server.js; npm packages stay external.
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
