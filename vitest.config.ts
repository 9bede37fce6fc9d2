import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './scripts/test/sequencer.js';

// Tests run against the sources, never against a build: every workspace package exports its source
// files under the "@latchkey/source" condition, which only the workspace's own tooling turns on.
// The rest is Vite's default list for server code.
const conditions = ['@latchkey/source', 'module', 'node', 'development|production'];

// The release test builds the whole workspace twice at once in clean checkouts (and checks the
// built packages of one), a minute or more of work that mostly waits on its builds: it starts first,
// in one of the suite's workers (its own project, in the suite's group), so its builds fill the time
// the suite spends waiting instead of adding a minute and a half at the end. The timing-sensitive
// tests (below) never share the machine with it.
const RELEASE_TESTS = ['scripts/test/release.test.ts'];
// Most of the suite waits (on PostgreSQL, spawned servers and CLIs, loopback sockets, retry timers)
// rather than computes: one file at a time, Vitest's default on two cores (cores - 1), leaves them
// idle half the time. Three files at once keep both busy.
const SUITE_WORKERS = Math.max(3, availableParallelism());
// The delivery fault tests push 10,000, 4,000 and 3,000 events through two worker processes and a receiver
// in the test's own process: sharing two cores with the suite's process-spawning tests, they starve
// (the receiver falls to a few events a second). The fairness test times every delivery against a
// one-second bound, and the noisy-neighbour tests another organization's p99 against 100 ms. They
// run on their own, one after the other, once the suite has ended.
// The unit tests of the packages' sources (and the verifier's and test utilities' tests) run in
// process, on no shared state but what each file sets up: they share their workers' module cache
// (`isolate: false`) instead of importing the sources again in a fresh process each, which took
// them four times as long as their tests. The adapters' HTTP suites stay isolated, like everything
// that spawns servers or touches the environment. Run one with `--project unit`.
const UNIT_TESTS = [
  'packages/{core,cli,dashboard,store-postgres}/src/**/*.test.ts',
  'packages/{test-utils,webhook-verifier}/{src,test}/**/*.test.ts',
];
const ALONE_TESTS = [
  'packages/store-postgres/test/delivery-fairness.test.ts',
  'packages/store-postgres/test/noisy-neighbours.test.ts',
  'examples/delivery-worker/src/fault.test.ts',
  'examples/delivery-worker/src/fault-mid-flush.test.ts',
  'examples/delivery-worker/src/fault-pgbouncer.test.ts',
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    // The longest files first (see the sequencer): the run does not end on one slow file started last.
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In CI the results are also written as JSON, so the run can end on one plain summary line.
    reporters: process.env['CI']
      ? ['default', ['json', { outputFile: 'node_modules/.cache/vitest-results.json' }]]
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'latchkey',
          include: [
            'packages/*/{src,test}/**/*.test.ts',
            'examples/*/{src,test}/**/*.test.ts',
            'scripts/test/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', ...RELEASE_TESTS, ...ALONE_TESTS, ...UNIT_TESTS],
          maxWorkers: SUITE_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          isolate: false,
          // The suite's group: these fill its workers once the longer files have started.
          maxWorkers: SUITE_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE_TESTS,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'release',
          include: RELEASE_TESTS,
          maxWorkers: SUITE_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
