import { libraryConfig } from '../../tsup.base.js';

/** The handler and the embed element (the app is built by Vite into `assets/`); shims give CJS `import.meta.url`. */
export default libraryConfig({ index: 'src/index.ts', embed: 'src/embed.ts' }, { shims: true });
