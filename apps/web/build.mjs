// The web app is always a production build: NODE_ENV is the server's run-time setting, and a shell
// that exports NODE_ENV=development must not ship React's development runtime (issue 18).
process.env.NODE_ENV = 'production';
const { build } = await import('vite');
await build({ mode: 'production' });
await build({ mode: 'production', build: { ssr: 'src/entry-server.tsx', outDir: 'dist-ssr' } });
