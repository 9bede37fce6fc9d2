import { libraryConfig } from '../../tsup.base.js';

export default libraryConfig({ index: 'src/index.ts' });
