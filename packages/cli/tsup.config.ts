import { defineConfig } from 'tsup';

/** The library entry and the binary's entry (`dist/main.js`, which `bin/latchkey.mjs` loads). */
export default defineConfig({
  entry: { index: 'src/index.ts', main: 'src/main.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  removeNodeProtocol: false,
});
