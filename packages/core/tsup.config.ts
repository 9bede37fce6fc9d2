import { libraryConfig } from '../../tsup.base.js';

export default libraryConfig({
  index: 'src/index.ts',
  'node/index': 'src/node/index.ts',
  'client/index': 'src/client/index.ts',
  'client/browser': 'src/client/browser.ts',
  'store/index': 'src/store/index.ts',
  'webhooks/index': 'src/delivery/index.ts',
});
