import { latchkeyExpress } from '@latchkey/adapter-express';
import { describeHttpConformance, fetchTarget, running, type StartTarget } from '@latchkey/test-utils';
import express from 'express';
import { describe } from 'vitest';
import { onPostgres, pgliteStore, postgresStore } from './databases.js';

// The noisy-neighbour tests (another organization's p99 while one restores, delivers over full
// mTLS handshakes, rotates keys and creates webhooks), through Express over loopback on every
// store. They time requests, so they run on their own once the rest of the suite has ended. A p99
// of a few hundred requests on two cores shared with PostgreSQL and the receiver rests on its few
// slowest answers, which a stall of the machine's own (another process, a GC pause) can push past
// the bound once: a test that misses it is run again, up to twice, and must meet it then. Each run
// prints its figures, so a miss stays visible.
const overExpress: StartTarget = async (core) => {
  const app = express();
  app.use(latchkeyExpress(core));
  const { base, close } = await running(app.listen(0, '127.0.0.1'));
  return fetchTarget(base, close);
};

describe('noisy neighbours', { retry: 2 }, () => {
  describeHttpConformance({ name: 'express on memory', start: overExpress, neighbours: true });

  describeHttpConformance({
    name: 'express on PGlite',
    start: overExpress,
    store: pgliteStore,
    // The owner doing everything at once on PGlite, whose SQL runs on the process's one thread: the
    // restore's steps, the rotations and the webhook creates take turns with the other
    // organization's requests on it. Their p99 measured 59 to 105 ms on a quiet machine here, and
    // 118 to 132 ms at the end of a full run (two cores, the slower of our machines). A held
    // organization waits for the owner's work, seconds; the restore's and the handshakes' own
    // 100 ms bounds still hold on PGlite.
    neighbours: { allAtOnceP99Ms: 200 },
  });

  onPostgres('HTTP conformance: neighbours, express on PostgreSQL', () =>
    describeHttpConformance({
      name: 'express on PostgreSQL',
      start: overExpress,
      store: () => postgresStore(),
      // The owner doing everything at once: PostgreSQL's server, the receiver and the test share
      // two cores, and the other organization's p99 measured 110 to 200 ms here (p50 16 ms) on the
      // code before and after the layering alike: the machine's bound, not a tenant's. A held
      // organization waits for the owner's work, seconds; the restore's own 100 ms bound (above)
      // still holds on PostgreSQL.
      neighbours: { allAtOnceP99Ms: 250 },
    }),
  );
});
