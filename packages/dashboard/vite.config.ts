import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the single-page app into `assets/`, which the handler serves. Asset URLs start with a
 * placeholder base that the handler replaces with the path the host mounts the dashboard at, so one
 * build serves `/dashboard` or any other mount point. Beside the app, the `<latchkey-portal>`
 * element is built as `latchkey-portal.js` (a name without a hash: host pages load it by that name).
 */
/**
 * The element, built on its own once the app is written: one module with nothing to import (a host
 * page loads it from another origin, and the app's chunks are not served to other origins).
 */
function elementBuild(): Plugin {
  return {
    name: 'latchkey-portal-element',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir: source('assets'),
          emptyOutDir: false,
          target: 'es2022',
          minify: true,
          lib: { entry: source('src/embed.ts'), formats: ['es'], fileName: () => 'latchkey-portal.js' },
        },
      });
    },
  };
}

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
  },
  plugins: [elementBuild()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
