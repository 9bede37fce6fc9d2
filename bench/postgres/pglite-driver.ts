/**
 * `tsx bench/postgres/pglite-driver.ts [--seconds 3] [--rounds 3] [--concurrency 16]`: signed pushes
 * through `core.handle` on PGlite, through the store's driver as it is and through a driver over
 * PGlite's own `query` and `transaction` (what the driver did before it spoke PGlite's wire protocol
 * itself: six calls into the engine a statement, parsed and planned each time, and no deferred
 * statements), beside the memory store, in turns in one process as `pnpm bench:postgres` runs its
 * contenders. Both PGlite databases are in memory, opened with the driver's memory settings.
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore } from '@latchkey/core';
import { createPostgresStore, type SqlDriver } from '@latchkey/store-postgres';
import { PGLITE_MEMORY_DEFAULTS, pgliteDriver } from '@latchkey/store-postgres/pglite';
import { closedLoop, type LoopResult } from './closed-loop.js';
import { type Contender, corePushes } from './contenders.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
  },
});
const seconds = Number(args.seconds);
const concurrency = Number(args.concurrency);

/** The driver before: PGlite's own `query` and `transaction`, as `drivers/pglite/pglite.ts` used them. */
async function pgliteOwnQueries(): Promise<SqlDriver & { db: PGlite }> {
  const params: Record<string, string> = {
    shared_buffers: PGLITE_MEMORY_DEFAULTS.sharedBuffers,
    work_mem: PGLITE_MEMORY_DEFAULTS.workMem,
    maintenance_work_mem: PGLITE_MEMORY_DEFAULTS.maintenanceWorkMem,
    temp_buffers: PGLITE_MEMORY_DEFAULTS.tempBuffers,
    wal_buffers: PGLITE_MEMORY_DEFAULTS.walBuffers,
  };
  const db = await PGlite.create('memory://', {
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries(params).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
  });
  await db.query('SET statement_timeout = 5000');
  await db.query('SET wal_init_zero = off');
  const on = (q: PGlite | { query: PGlite['query'] }) => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await q.query<Row>(text, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    db,
    name: 'pglite',
    serial: true,
    ...on(db),
    transaction: (fn) => db.transaction((tx) => fn(on(tx))),
    close: () => db.close(),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const now = await createPostgresStore({ driver: await pgliteDriver() });
const before = await createPostgresStore({ driver: await pgliteOwnQueries() });
const contenders: Record<string, Contender> = {
  'PGlite, the driver': await corePushes(now),
  "PGlite, PGlite's own query": await corePushes(before),
  memory: await corePushes(createMemoryStore()),
};
const results = new Map<string, LoopResult[]>(Object.keys(contenders).map((n) => [n, []]));
async function slice(name: string, length: number) {
  const contender = contenders[name]!;
  contender.prepare(Math.ceil(length * 6_000));
  const result = await closedLoop((i) => contender.op(i), concurrency, length);
  process.stderr.write(
    `  ${name.padEnd(28)} ${result.opsPerSecond.toFixed(0).padStart(6)} pushes/s, p50 ${result.p50Ms.toFixed(1)} ms, CPU ${result.cpuUsPerOp.toFixed(0)} µs, errors ${result.errors}\n`,
  );
  return result;
}
try {
  const names = Object.keys(contenders);
  for (const name of names) await slice(name, 1);
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      results.get(name)!.push(await slice(name, seconds));
    }
  }
} finally {
  await now.close();
  await before.close();
}
const memory = median(results.get('memory')!.map((r) => r.opsPerSecond));
process.stdout.write(
  '| contender | pushes/s | p50 ms | CPU µs/push | of memory |\n| --- | ---: | ---: | ---: | ---: |\n',
);
for (const [name, rs] of results) {
  const rps = median(rs.map((r) => r.opsPerSecond));
  process.stdout.write(
    `| ${name} | ${Math.round(rps)} | ${median(rs.map((r) => r.p50Ms)).toFixed(1)} | ${Math.round(median(rs.map((r) => r.cpuUsPerOp)))} | ${(rps / memory).toFixed(3)}x |\n`,
  );
}
