// Bundles the server (and the shared contract it imports) into dist/server.js; npm packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // @atelier/shared is TypeScript source inside the repo: bundle it rather than import it at run time.
  alias: { '@atelier/shared': '../../packages/shared/src/index.ts' },
  sourcemap: true,
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/server.js');
