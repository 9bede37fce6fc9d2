import { libraryConfig } from '../../tsup.base.js';

/** The handler only (the app is built by Vite into `assets/`); shims give CJS `import.meta.url`. */
export default libraryConfig({ index: 'src/index.ts' }, { shims: true });
