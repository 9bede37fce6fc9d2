import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the single-page app into `assets/`, which the handler serves. Asset URLs start with a
 * placeholder base that the handler replaces with the path the host mounts the dashboard at, so one
 * build serves `/dashboard` or any other mount point. Beside the app, the `<latchkey-portal>`
 * element is built as `latchkey-portal.js` (a name without a hash: host pages load it by that name).
 */
export default defineConfig({
  root: 'app',
  base: '/__latchkey_dashboard__/',
  publicDir: false,
  // The app shares the export checks of `@latchkey/core/client` (WebCrypto only), read from the
  // workspace's sources as the tests read them; the rest is Vite's default list for browsers.
  resolve: { conditions: ['@latchkey/source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: '../assets',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: false,
    reportCompressedSize: true,
    rollupOptions: {
      input: { index: source('app/index.html'), 'latchkey-portal': source('src/embed.ts') },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'latchkey-portal' ? 'latchkey-portal.js' : 'assets/[name]-[hash].js',
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
