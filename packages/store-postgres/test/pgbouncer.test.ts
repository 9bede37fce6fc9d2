/**
 * Behind PgBouncer in transaction mode (Debian's `pgbouncer`, started here in front of the real
 * PostgreSQL): each transaction gets whatever server connection is free, so anything leaning on
 * session state would break here. The whole HTTP suite and the four-process conflict test run
 * through it; the delivery fault test does too (examples/delivery-worker).
 */
import { latchkeyExpress } from '@latchkey/adapter-express';
import {
  describeHttpConformance,
  fetchTarget,
  pgBouncerForTests,
  type RunningPgBouncer,
  running,
  type StartTarget,
  startPgBouncer,
} from '@latchkey/test-utils';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgDriver } from '../src/pg.js';
import { describeConcurrentPushes } from './concurrent-pushes.js';
import { DATABASE_URL, onPostgres, postgresStore } from './databases.js';

const binary = pgBouncerForTests();

const overExpress: StartTarget = async (core) => {
  const app = express();
  app.use(latchkeyExpress(core));
  const { base, close } = await running(app.listen(0, '127.0.0.1'));
  return fetchTarget(base, close);
};

onPostgres('behind PgBouncer in transaction mode', () => {
  // Skipped only off CI when pgbouncer is not installed (in CI this module has already failed).
  describe.skipIf(!binary)(
    `behind PgBouncer in transaction mode${binary ? '' : ' (needs pgbouncer)'}`,
    () => {
      let bouncer: RunningPgBouncer;
      beforeAll(async () => {
        bouncer = await startPgBouncer(DATABASE_URL);
      });
      afterAll(async () => {
        await bouncer?.stop();
      });

      it('sets the timeouts in each transaction and leaves the server sessions as it found them', async () => {
        const driver = await pgDriver({ connectionString: bouncer.url, pooler: 'transaction', max: 4 });
        try {
          const inside = await driver.transaction(async (tx) => {
            const { rows } = await tx.query<{ statement_timeout: string }>('SHOW statement_timeout');
            return rows[0]!.statement_timeout;
          });
          expect(inside).toBe('5s');
          // Outside a transaction the server connection keeps its own setting: nothing leaked into it.
          const { rows } = await driver.query<{ statement_timeout: string }>('SHOW statement_timeout');
          expect(rows[0]!.statement_timeout).toBe('0');
          // LISTEN would not survive the pooler: without a direct listenUrl the driver offers none.
          expect(driver.listen).toBeUndefined();
        } finally {
          await driver.close();
        }
      });

      it('listens on the direct listenUrl while everything else goes through the pooler', async () => {
        const driver = await pgDriver({
          connectionString: bouncer.url,
          pooler: 'transaction',
          listenUrl: DATABASE_URL,
        });
        try {
          let heard = 0;
          const stop = await driver.listen!('latchkey_pgbouncer_test', () => {
            heard++;
          });
          const before = heard;
          await driver.transaction((tx) => tx.query("SELECT pg_notify('latchkey_pgbouncer_test', 'x')"));
          const began = Date.now();
          while (heard === before && Date.now() - began < 5_000) await new Promise((r) => setTimeout(r, 20));
          expect(heard).toBeGreaterThan(before);
          await stop();
        } finally {
          await driver.close();
        }
      });

      describeHttpConformance({
        name: 'express on PostgreSQL through PgBouncer (transaction mode)',
        start: overExpress,
        store: () => postgresStore({ url: bouncer.url, pooler: 'transaction' }),
      });

      describeConcurrentPushes(
        'four processes pushing to the same keys through PgBouncer (transaction mode)',
        () => ({
          url: bouncer.url,
          pooler: 'transaction',
        }),
      );
    },
  );
});
