import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.ATELIER_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': api, '/storage': api, '/sanctum': api, '/dev': api, '/sitemap.xml': api, '/robots.txt': api },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
});
