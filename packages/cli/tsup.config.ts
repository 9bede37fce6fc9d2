import { libraryConfig } from '../../tsup.base.js';

/** The library entry and the binary's entry (`dist/main.js`, which `bin/latchkey.mjs` loads). */
export default libraryConfig({ index: 'src/index.ts', main: 'src/main.ts' });
