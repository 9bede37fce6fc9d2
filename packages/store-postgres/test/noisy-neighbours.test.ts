import { latchkeyExpress } from '@latchkey/adapter-express';
import { describeHttpConformance, fetchTarget, running, type StartTarget } from '@latchkey/test-utils';
import express from 'express';
import { onPostgres, pgliteStore, postgresStore } from './databases.js';

// The noisy-neighbour tests (another organization's p99 while one restores, delivers over full
// mTLS handshakes, rotates keys and creates webhooks), through Express over loopback on every
// store. They time requests, so they run on their own once the rest of the suite has ended.
const overExpress: StartTarget = async (core) => {
  const app = express();
  app.use(latchkeyExpress(core));
  const { base, close } = await running(app.listen(0, '127.0.0.1'));
  return fetchTarget(base, close);
};

describeHttpConformance({ name: 'express on memory', start: overExpress, neighbours: true });

describeHttpConformance({
  name: 'express on PGlite',
  start: overExpress,
  store: pgliteStore,
  neighbours: true,
});

onPostgres('HTTP conformance: neighbours, express on PostgreSQL', () =>
  describeHttpConformance({
    name: 'express on PostgreSQL',
    start: overExpress,
    store: () => postgresStore(),
    neighbours: true,
  }),
);
