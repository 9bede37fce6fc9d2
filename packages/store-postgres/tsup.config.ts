import { libraryConfig } from '../../tsup.base.js';

// Each driver is an entry point of its own. Code they share with the main entry (the store's error
// classes) goes in shared chunks in CJS too, so `instanceof` holds across the three.
export default libraryConfig(
  { index: 'src/index.ts', pg: 'src/pg.ts', pglite: 'src/pglite.ts' },
  { splitting: true },
);
