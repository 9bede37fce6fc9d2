/**
 * The SIGKILL fault test behind PgBouncer in transaction mode (Debian's `pgbouncer`, started here):
 * the workers and the event writers reach PostgreSQL only through it, the workers LISTEN on a
 * direct connection. Two workers share 3,000 events; worker A is killed once 1,000 are applied.
 * Every event arrives, the receiver applies each exactly once, and the rollups count exactly the
 * attempts logged, as without a pooler.
 */
import { pgBouncerForTests, type RunningPgBouncer, startPgBouncer } from '@latchkey/test-utils';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectEachAppliedOnce, expectRollupsMatchAttempts, report } from './fault-checks.js';
import { DATABASE_URL, faultScenario, postgresUnreachable } from './fault-scenario.js';

const EVENTS = 3_000;
const KILL_AFTER = 1_000;
const unreachable = await postgresUnreachable();
const binary = pgBouncerForTests();
const missing = unreachable ? `needs PostgreSQL: ${unreachable}` : binary ? null : 'needs pgbouncer';

describe.skipIf(missing !== null)(
  // Skipped only off CI when PostgreSQL or pgbouncer is missing (in CI this module has already thrown).
  `two delivery workers behind PgBouncer, one killed with SIGKILL mid-way${missing ? ` (${missing})` : ''}`,
  () => {
    let bouncer: RunningPgBouncer;
    beforeAll(async () => {
      bouncer = await startPgBouncer(DATABASE_URL);
    });
    afterAll(async () => {
      await bouncer?.stop();
    });

    const run = faultScenario(
      EVENTS,
      async (run) => {
        while (run.counts.applied < KILL_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
        run.workers[0]!.child.kill('SIGKILL');
      },
      { pooler: () => bouncer.url },
    );

    it('delivers every event at least once, and the receiver applies each exactly once', async () => {
      await expectEachAppliedOnce(run);
      const { attempts } = await expectRollupsMatchAttempts(run);
      report('fault test behind PgBouncer (transaction mode; two workers, one killed with SIGKILL):', run, [
        ['killed after', `${KILL_AFTER} applied (exit ${run.workers[0]!.child.signalCode})`],
        ['attempts logged', attempts],
      ]);
    });
  },
);
