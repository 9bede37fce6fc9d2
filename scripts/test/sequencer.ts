/**
 * The order the test files start in: the longest first, so the few files that take a minute or two
 * do not start last and leave the other workers idle at the end of the run. Vitest's own order
 * (longest first by the durations it cached on the last run, else the largest file first) knows
 * nothing on a fresh clone, where `npm test` runs, and there the largest files are mostly quick.
 * The seconds below are the files' durations in one full run on a busy 2-core machine, and for the
 * files added since, their durations in runs of a few files scaled to it: only their order matters.
 * A file not listed starts after those listed, in Vitest's own order, which on a fresh clone is
 * about its size (a three-line file that runs a whole suite starts last): list a new file here when
 * it takes more than a few seconds. The files of a project that shares its workers
 * (`isolate: false`) start after all the others, one after another, so a worker goes from one to
 * the next without starting again (Vitest keeps a shared worker only when the next file shares it).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS = new Map<string, number>([
  ['scripts/test/release.test.ts', 168],
  ['packages/store-postgres/test/http-conformance.test.ts', 130],
  ['examples/hono/src/memory-limit.test.ts', 100],
  ['packages/store-postgres/test/pgbouncer.test.ts', 80],
  ['packages/store-postgres/test/delivery-fairness.test.ts', 46],
  ['packages/store-postgres/test/own-seals.test.ts', 40],
  ['examples/delivery-worker/src/fault.test.ts', 34],
  ['packages/cli/test/changes.test.ts', 30],
  ['packages/cli/test/backup-restore.test.ts', 30],
  ['packages/dashboard/test/embedding-doc.test.ts', 24],
  ['packages/adapter-express/src/index.test.ts', 22],
  ['examples/hono/src/server.test.ts', 21],
  ['packages/adapter-fastify/src/index.test.ts', 20],
  ['packages/adapter-hono/src/index.test.ts', 20],
  ['packages/cli/test/token-and-terminal.test.ts', 20],
  ['packages/cli/test/cli.test.ts', 20],
  ['scripts/test/readme.test.ts', 19],
  ['examples/fastify/src/server.test.ts', 18],
  ['packages/dashboard/test/audit-webhooks.test.ts', 18],
  ['packages/dashboard/test/portal.test.ts', 16],
  ['examples/delivery-worker/src/database-cut.test.ts', 16],
  ['examples/delivery-worker/src/fault-pgbouncer.test.ts', 16],
  ['packages/cli/test/hostile-server.test.ts', 15],
  ['packages/store-postgres/test/store-conformance.test.ts', 15],
  ['examples/express/src/server.test.ts', 15],
  ['packages/store-postgres/test/keyring-binding.test.ts', 15],
  ['packages/cli/test/history-rollback.test.ts', 14],
  ['packages/store-postgres/test/restore-locks.test.ts', 14],
  ['packages/store-postgres/test/pending-events.test.ts', 14],
  ['scripts/test/demo.test.ts', 13],
  ['packages/store-postgres/test/concurrent-applies.test.ts', 13],
  ['examples/delivery-worker/src/fault-mid-flush.test.ts', 13],
  ['packages/cli/test/prove-cosignatures.test.ts', 12],
  ['packages/cli/test/workload-ci.test.ts', 5],
  ['packages/store-postgres/test/crash.test.ts', 11],
  ['packages/dashboard/test/activity.test.ts', 11],
  ['packages/store-postgres/test/migrations.test.ts', 10],
  ['packages/dashboard/test/portal-changes.test.ts', 10],
  ['packages/cli/test/pull-local-edits.test.ts', 9],
  ['packages/cli/test/workload-session.test.ts', 7],
  ['packages/dashboard/test/changes.test.ts', 9],
  ['packages/cli/test/backup-tls.test.ts', 8],
  ['packages/cli/test/witness-split-view.test.ts', 8],
  ['packages/dashboard/test/activity-member.test.ts', 8],
  ['packages/store-postgres/test/delivery-engine.test.ts', 8],
  ['packages/store-postgres/test/tree-backfill.test.ts', 8],
  ['packages/store-postgres/test/webhook-credentials-at-rest.test.ts', 8],
  ['packages/store-postgres/test/pglite-template.test.ts', 8],
  ['packages/store-postgres/test/explain.test.ts', 7],
  ['packages/dashboard/test/transparency.test.ts', 7],
  ['packages/store-postgres/test/sealed-at-rest.test.ts', 7],
  ['packages/store-postgres/test/workload-tokens-at-rest.test.ts', 6],
  ['packages/store-postgres/test/pglite-options.test.ts', 6],
  ['packages/cli/test/witness-pinning.test.ts', 6],
  ['packages/store-postgres/test/concurrent-pushes.test.ts', 6],
  ['packages/dashboard/test/what-people-see.test.ts', 6],
  // The shared workers' files (see above), among themselves.
  ['packages/test-utils/test/in-process.test.ts', 20],
  ['packages/core/src/node/node.test.ts', 11],
  ['packages/webhook-verifier/test/memory-replay-store.test.ts', 10],
  ['packages/webhook-verifier/test/redis-replay-store.test.ts', 9],
  ['packages/test-utils/test/restore-in-steps.test.ts', 7],
]);

/** Seconds a file is expected to take (0 when not listed), by its path from the repository root. */
const expected = (spec: TestSpecification) =>
  SECONDS.get(spec.moduleId.slice(spec.project.config.root.length).replace(/^\//, '')) ?? 0;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const position = new Map(base.map((spec, i) => [spec, i]));
    const shared = (spec: TestSpecification) => (spec.project.config.isolate === false ? 1 : 0);
    // The projects' group order stays the first key.
    return [...base].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        shared(a) - shared(b) ||
        expected(b) - expected(a) ||
        position.get(a)! - position.get(b)!,
    );
  }
}
