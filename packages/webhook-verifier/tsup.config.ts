import { libraryConfig } from '../../tsup.base.js';

export default libraryConfig({ index: 'src/index.ts', redis: 'src/redis.ts', web: 'src/web.ts' });
