/**
 * The fault test's second variant: worker A is killed with SIGKILL in the middle of a batch flush.
 * Once 1,000 events have been applied, the test locks the metrics rollup rows (in a transaction of
 * its own), so the next flush of each worker stops at its rollup upsert, inside its transaction:
 * a part of the flush's writing statement that comes after its attempt rows; as soon as PostgreSQL
 * shows worker A's session waiting there, A is killed and the lock let go.
 *
 * The writing statement travels with its COMMIT (the pg driver sends both in one write), so the
 * server has A's COMMIT before A dies: once the lock is let go, A's session finishes the statement
 * and commits the whole flush, or (should the server notice the lost connection first) rolls all
 * of it back, and B sends those deliveries again once their leases end, refused as replays. Either
 * way nothing of the flush is half-written: the rollups equal a count over the attempt rows, and
 * every event is applied exactly once.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { expectEachAppliedOnce, expectRollupsMatchAttempts, report } from './fault-checks.js';
import { type FaultRun, faultScenario, postgresUnreachable } from './fault-scenario.js';

const EVENTS = 4_000;
const KILL_AFTER = 1_000;
const unreachable = await postgresUnreachable();

/** What worker A's session was doing when it was killed. */
const seen = { query: '', waited: 0 };

/** The worker (`worker-a` or `worker-b`) whose flush waits at the rollup upsert, if one does. */
async function waitingAtRollups(client: pg.Client): Promise<{ worker: string; query: string } | null> {
  // A transaction sees pg_stat_activity as of its first read unless the snapshot is dropped.
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query(
    `SELECT application_name AS worker, query FROM pg_stat_activity
     WHERE application_name IN ('worker-a', 'worker-b') AND state = 'active' AND wait_event_type = 'Lock'
       AND query LIKE 'WITH attempts_added AS%INSERT INTO "latchkey".webhook_rollups%'`,
  );
  return rows[0] ? { worker: String(rows[0].worker), query: String(rows[0].query) } : null;
}

/**
 * Holds the rollups' rows until worker A waits on them inside a flush, then kills A and lets go.
 * The scenario has one webhook, whose row a flush locks first: while B's flush waits at the rollups,
 * A's waits behind it for the webhook, so the lock is let go and taken again until A is the one.
 */
async function killMidFlush(run: FaultRun): Promise<void> {
  while (run.counts.applied < KILL_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
  const blocker = new pg.Client({ connectionString: run.url.href });
  // The scenario's end drops the database WITH (FORCE), which ends this session too: not an error.
  blocker.on('error', () => {});
  await blocker.connect();
  try {
    const began = Date.now();
    await blocker.query('BEGIN');
    for (;;) {
      // Locks every rollup row there is now (new minutes bring new rows: locked on the next turn).
      // A flush holding a new row while it waits for one held here is a deadlock PostgreSQL may
      // settle by ending this transaction: then let go and take the rows again.
      const locked = await blocker.query('SELECT 1 FROM latchkey.webhook_rollups FOR UPDATE').then(
        () => true,
        (error: { code?: string }) => {
          if (error.code !== '40P01') throw error;
          return false;
        },
      );
      if (!locked) {
        await blocker.query('ROLLBACK');
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
        await blocker.query('BEGIN');
        continue;
      }
      const waiting = await waitingAtRollups(blocker);
      if (waiting?.worker === 'worker-a') {
        seen.query = waiting.query;
        seen.waited = Date.now() - began;
        break;
      }
      if (waiting) {
        await blocker.query('ROLLBACK');
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
        await blocker.query('BEGIN');
      }
      if (Date.now() - began > 60_000) throw new Error('worker A never waited inside a flush');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    run.workers[0]!.child.kill('SIGKILL');
    await new Promise((resolve) => run.workers[0]!.child.once('exit', resolve));
  } finally {
    await blocker.query('ROLLBACK').catch(() => {});
    await blocker.end();
  }
}

describe.skipIf(unreachable !== null)(
  `two delivery workers, one killed with SIGKILL in the middle of a flush${unreachable ? ` (needs PostgreSQL: ${unreachable})` : ''}`,
  () => {
    const run = faultScenario(EVENTS, killMidFlush);

    it('leaves the killed flush whole or not at all; every event is applied exactly once', async () => {
      // Killed at the rollup upsert, after the flush's statement wrote its attempt rows.
      expect(seen.query).toMatch(
        /^WITH attempts_added AS \(\s*INSERT INTO "latchkey"\.webhook_attempts .*rollups_added AS \(\s*INSERT INTO "latchkey"\.webhook_rollups /s,
      );
      await expectEachAppliedOnce(run);
      const { attempts } = await expectRollupsMatchAttempts(run);
      report('fault test (worker A killed with SIGKILL in the middle of a flush):', run, [
        ['killed after', `${KILL_AFTER} applied, waiting ${seen.waited} ms at: ${seen.query.split('\n')[0]}`],
        ['attempts logged', attempts],
        [
          'the killed flush',
          run.counts.replays > 0 ? 'rolled back: its deliveries were sent again' : 'committed whole',
        ],
      ]);
    });
  },
);
