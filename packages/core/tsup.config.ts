import { libraryConfig } from '../../tsup.base.js';

// One entry per face (src/faces/), built to the dist paths the exports map has always named.
export default libraryConfig({
  index: 'src/faces/main.ts',
  'node/index': 'src/faces/node.ts',
  'client/index': 'src/faces/client.ts',
  'client/browser': 'src/faces/client-browser.ts',
  'store/index': 'src/faces/store.ts',
  'webhooks/index': 'src/faces/webhooks.ts',
});
