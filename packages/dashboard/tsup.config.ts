import { defineConfig } from 'tsup';

/** The handler only (the app is built by Vite into `assets/`); shims give CJS `import.meta.url`. */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  removeNodeProtocol: false,
  shims: true,
});
