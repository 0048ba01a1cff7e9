import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { gateApp } from './scripts/vite/gate-app.js';
import { loginLocales } from './scripts/vite/login-locales.js';
import { precompress } from './scripts/vite/precompress.js';

const API = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

const ROOT = resolve(import.meta.dirname);
const OUT = resolve(ROOT, 'dist/client');

/**
 * The console and the gate app (/garita/, an installable PWA): built into dist/client (each text
 * file also brotli- and gzip-compressed), served
 * by the API server in production.
 */
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react(), loginLocales(ROOT), ...gateApp(ROOT, OUT), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rolldownOptions: {
      input: {
        index: resolve(ROOT, 'src/client/index.html'),
        garita: resolve(ROOT, 'src/client/garita/index.html'),
      },
    },
    // Source maps are not shipped: the console's code is not meant to be read in the browser.
    sourcemap: false,
  },
  server: { port: 5173, proxy: { '/api': API } },
});
