/**
 * `tsx bench/postgres/profile.ts [--seconds 6] [--concurrency 16] [--store pg|memory|pglite|raw]`: signed
 * pushes through `core.handle` in a closed loop, with what each push costs: Node CPU, and on
 * PostgreSQL the statements sent per push (every `query` node-postgres' clients send, BEGIN and
 * COMMIT included) and the transactions per push; `raw` is the bench's raw plain contender. Run it under `node --cpu-prof` to see where the
 * CPU goes:
 *
 *   node --cpu-prof --conditions=@latchkey/source --import tsx bench/postgres/profile.ts
 */
import { parseArgs } from 'node:util';
import { createMemoryStore } from '@latchkey/core';
import type { SqlDriver, SqlQueryable } from '@latchkey/store-postgres';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';
import pg from 'pg';
import { postgresCpuSeconds, postgresTicks } from '../delivery/cpu.js';
import { closedLoop } from './closed-loop.js';
import { type Contender, corePushes, rawPushes } from './contenders.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '16' },
    store: { type: 'string', default: 'pg' },
  },
});
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_profile_${process.pid}`;

// Counts what node-postgres sends: each client `query` call is one round trip.
const counts = new Map<string, number>();
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
  const first = a[0] as string | { text: string };
  const text = typeof first === 'string' ? first : first.text;
  const kind = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return query.apply(this, a);
} as typeof pg.Client.prototype.query;

const rawPool = args.store === 'raw' ? new pg.Pool({ connectionString: url, max: 10 }) : null;
// On PGlite, counts what the store sends through the driver: each statement, BEGIN and COMMIT.
const count = (text: string) => {
  const kind = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
};
const countedOn = (q: SqlQueryable): SqlQueryable => ({
  query(text, params) {
    count(text);
    return q.query(text, params);
  },
  ...(q.defer
    ? {
        defer(text: string, params?: readonly unknown[]) {
          count(text);
          q.defer!(text, params);
        },
      }
    : {}),
});
const counted = (driver: SqlDriver): SqlDriver => ({
  ...driver,
  name: driver.name,
  ...countedOn(driver),
  transaction: (fn) =>
    driver.transaction((tx) => {
      count('BEGIN');
      return fn(countedOn(tx)).finally(() => count('COMMIT'));
    }),
  close: () => driver.close(),
});
const store =
  args.store === 'memory' || rawPool
    ? createMemoryStore()
    : await createPostgresStore({
        driver:
          args.store === 'pglite' ? counted(await pgliteDriver()) : await pgDriver({ connectionString: url }),
        schema,
      });
// Times the seals the sequencer runs: with the bench's one organization, their time over the run's
// is the share of it the seal lane (one seal at a time) was busy.
const seals = { count: 0, ms: 0, events: 0 };
const activity = store.activity as unknown as Record<
  string,
  ((...a: unknown[]) => Promise<unknown>) | undefined
>;
for (const name of ['sealNext', 'sealPending']) {
  const seal = activity[name]?.bind(activity);
  if (!seal) continue;
  activity[name] = async (...a) => {
    const start = performance.now();
    const result = await seal(...a);
    seals.count++;
    seals.ms += performance.now() - start;
    seals.events += typeof result === 'number' ? result : (result as { sealed: number }).sealed;
    return result;
  };
}
try {
  const contender: Contender = rawPool ? await rawPushes(rawPool, schema, false) : await corePushes(store);
  contender.prepare(2_000);
  await closedLoop((i) => contender.op(i), Number(args.concurrency), 1);
  counts.clear();
  Object.assign(seals, { count: 0, ms: 0, events: 0 });
  const seconds = Number(args.seconds);
  contender.prepare(Math.ceil(seconds * 4_000));
  const before = postgresTicks();
  const started = performance.now();
  const result = await closedLoop((i) => contender.op(i), Number(args.concurrency), seconds);
  const elapsedMs = performance.now() - started;
  // PostgreSQL's CPU in µs (0 without /proc).
  const database = (postgresCpuSeconds(before, postgresTicks()) ?? 0) * 1e6;
  const perPush = (n: number) => (n / result.ops).toFixed(2);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${args.store}: ${result.opsPerSecond.toFixed(0)} pushes/s, p50 ${result.p50Ms.toFixed(1)} ms, ` +
      `CPU ${result.cpuUsPerOp.toFixed(0)} µs/push in Node, ` +
      `${(database / result.ops).toFixed(0)} µs/push in PostgreSQL's processes, errors ${result.errors}\n`,
  );
  if (seals.count > 0) {
    process.stdout.write(
      `seals: ${perPush(seals.count)} per push, ${(seals.ms / seals.count).toFixed(1)} ms and ` +
        `${(seals.events / seals.count).toFixed(1)} events each, busy ${((100 * seals.ms) / elapsedMs).toFixed(0)} % of the run\n`,
    );
  }
  if (total > 0) {
    // A transaction's BEGIN may share its round trip with a first statement.
    const begins = [...counts].filter(([kind]) => kind.startsWith('BEGIN')).reduce((a, [, n]) => a + n, 0);
    process.stdout.write(
      `round trips per push ${perPush(total)}, transactions per push ${perPush(begins)}\n`,
    );
    for (const [kind, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      process.stdout.write(`  ${perPush(n).padStart(6)}  ${kind}\n`);
    }
  }
} finally {
  if (rawPool) {
    await rawPool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await rawPool.end();
  } else if (args.store !== 'memory') {
    await (store as { close(): Promise<void> }).close();
    if (args.store === 'pg') {
      const pool = new pg.Pool({ connectionString: url });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  }
}
