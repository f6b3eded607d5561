import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The console is static files that the API serves at /console: built here into dist/apps/console,
// beside the compiled API, by `npm run build`.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '../../dist/apps/console'),
    emptyOutDir: true,
    // The API's Content-Security-Policy allows no inline script; the polyfill would be one.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
});
