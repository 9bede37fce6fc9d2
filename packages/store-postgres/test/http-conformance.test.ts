import { latchkeyExpress } from '@latchkey/adapter-express';
import { describeHttpConformance, fetchTarget, running, type StartTarget } from '@latchkey/test-utils';
import express from 'express';
import { onPostgres, pgliteStore, postgresStore } from './databases.js';

// The whole HTTP suite through one adapter (Express, over loopback) on each SQL store.
const overExpress: StartTarget = async (core) => {
  const app = express();
  app.use(latchkeyExpress(core));
  const { base, close } = await running(app.listen(0, '127.0.0.1'));
  return fetchTarget(base, close);
};

describeHttpConformance({ name: 'express on PGlite', start: overExpress, store: pgliteStore });

onPostgres('HTTP conformance: express on PostgreSQL', () =>
  describeHttpConformance({
    name: 'express on PostgreSQL',
    start: overExpress,
    store: () => postgresStore(),
  }),
);
