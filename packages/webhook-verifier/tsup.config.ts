import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', redis: 'src/redis.ts', web: 'src/web.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  // Keep `node:crypto` as written: Deno and Bun resolve built-ins by the `node:` prefix.
  removeNodeProtocol: false,
});
