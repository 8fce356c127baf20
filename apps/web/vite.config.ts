import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const api = process.env.ATELIER_API ?? 'http://localhost:3000';

/**
 * Writes .br and .gz copies of every built asset; the server sends them to browsers that accept
 * them (@fastify/static preCompressed), so a phone on a slow network downloads a third of the bytes.
 * Also writes dist/build-info.json, naming the NODE_ENV of the build.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let ssr = false;
  return {
    name: 'atelier-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    closeBundle() {
      // The server-rendering bundle is read from disk by the server, never sent to a browser.
      if (ssr) return;
      // The NODE_ENV the bundle was made with: `npm run audit:web` refuses a development build.
      writeFileSync(path.join(outDir, 'build-info.json'), `${JSON.stringify({ node_env: process.env.NODE_ENV ?? null })}\n`);
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|html|json)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress()],
  // `vite build --ssr src/entry-server.tsx` bundles the server renderer; the shared contract is
  // TypeScript source in the repo, so it is bundled in, while npm packages load from node_modules.
  ssr: { noExternal: ['@atelier/shared'] },
  server: {
    port: 5173,
    proxy: { '/api': api, '/storage': api, '/sanctum': api, '/dev': api, '/sitemap.xml': api, '/robots.txt': api },
  },
  // The manifest lets the server name each page's route module in its HTML (features/seo/page-preload.ts).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    manifest: !isSsrBuild,
    copyPublicDir: !isSsrBuild,
    // The bundler's own helpers (CommonJS interop for React) get a chunk of their own: left to
    // itself it puts them into some shared chunk (it chose the German dictionary), and every page
    // then downloads that chunk first.
    rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: { groups: [{ name: 'runtime', test: /rolldown[\\/]runtime/ }] } } },
  },
}));
