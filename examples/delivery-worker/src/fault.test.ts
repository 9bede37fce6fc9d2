/**
 * The fault test on real PostgreSQL: two delivery worker processes share 10,000 events bound for a
 * loopback HTTPS receiver, and worker A is killed with SIGKILL once 3,000 have been applied, with
 * attempts in flight and outcomes waiting to be recorded. Every event id arrives at least once (the
 * killed worker's claims are taken over when their lease ends), and the receiver, which verifies
 * each delivery with its replay cache, applies each exactly once: a delivery the killed worker sent
 * but never recorded comes again, and is refused as a replay with the 200 that tells the sender it
 * is done. The rollups then count exactly the attempts logged.
 */
import { describe, it } from 'vitest';
import { expectEachAppliedOnce, expectRollupsMatchAttempts, report } from './fault-checks.js';
import { faultScenario, postgresUnreachable } from './fault-scenario.js';

const EVENTS = 10_000;
const KILL_AFTER = 3_000;
const unreachable = await postgresUnreachable();

describe.skipIf(unreachable !== null)(
  // Skipped only off CI when no PostgreSQL answers (in CI postgresUnreachable has already thrown).
  `two delivery workers, one killed with SIGKILL mid-way${unreachable ? ` (needs PostgreSQL: ${unreachable})` : ''}`,
  () => {
    const run = faultScenario(EVENTS, async (run) => {
      while (run.counts.applied < KILL_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
      run.workers[0]!.child.kill('SIGKILL');
    });

    it('delivers every event at least once, and the receiver applies each exactly once', async () => {
      await expectEachAppliedOnce(run);
      const { attempts } = await expectRollupsMatchAttempts(run);
      report('fault test (two worker processes, one killed with SIGKILL):', run, [
        ['killed after', `${KILL_AFTER} applied (exit ${run.workers[0]!.child.signalCode})`],
        ['attempts logged', attempts],
      ]);
    });
  },
);
