/**
 * `pnpm bench:delivery`: audit webhook deliveries per second to a keep-alive loopback HTTPS receiver
 * (a process of its own), in one run: a bare undici loop posting the same signed bodies (the raw
 * limit), our delivery engine in one process on the in-memory store, and 1, 2 and 4 worker
 * processes sharing one outbox on PostgreSQL. Each rate is taken between the first and the last
 * arrival at the receiver, so process start-up and filling the outbox are not measured. The
 * PostgreSQL rows also show the statements and transactions per delivery: each worker's driver
 * counts them (`counting-driver.ts`) from the start signal to its stop, and the workers' sums are
 * divided by the deliveries measured. A second table says where the CPU went in each run (the
 * sending processes, PostgreSQL, the receiver, the whole machine; `cpu.ts`) and how often the
 * sending processes waited for a core: on a small machine that is what limits more workers.
 *
 *   tsx bench/delivery/run.ts [--deliveries 5000] [--concurrency 16] [--write] [--only bare,engine]
 *                             [--profile dir] [--runs 1x8,2x8] [--postgres-rounds 3] [--receiver-ms 0]
 *
 * `--only` picks contenders (`bare` always runs: the others are measured against it): `bare2` (two
 * bare loops at once, the raw limit of a second sending process), `engine`, `postgres`.
 * `--receiver-ms` makes the receiver answer that long after reading each body. `--runs` picks PostgreSQL runs by processes x webhooks; `--postgres-rounds` how many
 * times each runs (its median is kept). `--profile dir` runs the contenders under `node --cpu-prof`
 * and leaves their profiles in `dir` (read them with bench/push/profile-summary.ts).
 *
 * Goal: the engine in one process at least 0.5x of the bare loop. DATABASE_URL (default the local
 * server) names the database; the run uses schemas of its own and drops them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateKeyringKey } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { publishResults } from '../push/report.js';
import { type SqlCounters, sumCounters } from './counting-driver.js';
import { type CpuSplit, machineBusySeconds, postgresCpuSeconds, postgresTicks, quietMachine } from './cpu.js';
import { fillOutbox } from './fill.js';
import { deliveryReport, type Measured } from './report.js';

const { values: args } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '16' },
    write: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'string' },
    runs: { type: 'string' },
    'postgres-rounds': { type: 'string', default: '3' },
    'receiver-ms': { type: 'string', default: '0' },
  },
});
const only = args.only ? new Set(args.only.split(',')) : null;
const profileDir = args.profile ? resolve(args.profile) : undefined;
const count = Number(args.deliveries);
const concurrency = Number(args.concurrency);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const receiverMs = Number(args['receiver-ms']);
const ROUNDS = 5;
const POSTGRES_ROUNDS = Number(args['postgres-rounds']);
/** The PostgreSQL runs: 1, 2 and 4 worker processes on one webhook, then on eight; `key` names each's result. */
const ALL_POSTGRES_RUNS = [1, 8].flatMap((webhooks) =>
  [1, 2, 4].map((processes) => ({ processes, webhooks, key: `pg${processes}x${webhooks}` })),
);
/** `--runs 1x8,2x8`: only these PostgreSQL runs (processes x webhooks), to compare code quickly. */
const POSTGRES_RUNS = args.runs
  ? ALL_POSTGRES_RUNS.filter((run) => args.runs!.split(',').includes(`${run.processes}x${run.webhooks}`))
  : ALL_POSTGRES_RUNS;
const at = new Date().toISOString();
const log = (message: string) => process.stderr.write(`${message}\n`);
const dir = mkdtempSync(join(tmpdir(), 'latchkey-bench-delivery-'));
const certificate = makeLoopbackCertificate(dir);
const keyring = `k1:${generateKeyringKey()}`;
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function child(script: string, env: Record<string, string>): ChildProcess {
  const profile =
    profileDir && !script.includes('receiver') ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return fork(fileURLToPath(new URL(script, import.meta.url)), {
    execArgv: ['--conditions=@latchkey/source', '--import', tsx, ...profile],
    env: { ...process.env, NODE_EXTRA_CA_CERTS: certificate.certFile, KEYRING: keyring, ...env },
  });
}

/** The next IPC message of `process` that has `key`. */
function next<T>(process: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (!(key in message)) return;
      process.off('message', onMessage);
      resolve(message as T);
    };
    process.on('message', onMessage);
    process.once('exit', (code) => reject(new Error(`a child exited (${code}) before sending ${key}`)));
  });
}

const receiver = child('./receiver.ts', {
  KEY_FILE: certificate.keyFile,
  CERT_FILE: certificate.certFile,
  DELAY_MS: String(receiverMs),
});
const { port } = await next<{ port: number }>(receiver, 'port');
const receiverUrl = `https://localhost:${port}/hook`;

/** Starts `workers` (already filled or sharing a filled outbox), tells them to go, times the arrivals. */
async function timed(workers: ChildProcess[], owed: number): Promise<Measured> {
  await Promise.all(workers.map((worker) => next(worker, 'ready')));
  const waited = await quietMachine();
  if (waited >= 1_000) log(`  waited ${(waited / 1000).toFixed(1)} s for the machine to quieten`);
  const [postgres, machine, started] = [postgresTicks(), machineBusySeconds(), performance.now()];
  receiver.send({ expect: owed });
  const done = next<{ count: number; seconds: number; cpu: number }>(receiver, 'count');
  for (const worker of workers) worker.send({ go: true });
  const { count: deliveries, seconds, cpu: receiverCpu } = await done;
  const wall = (performance.now() - started) / 1000;
  const [postgresAfter, machineAfter] = [postgresTicks(), machineBusySeconds()];
  const postgresCpu = postgresCpuSeconds(postgres, postgresAfter);
  const workerCpu = await Promise.all(
    workers.map((worker) => {
      const answer = next<{ cpu: number; preempted: number }>(worker, 'cpu');
      worker.send({ cpu: true });
      return answer;
    }),
  );
  const cpu: CpuSplit = {
    workers: workerCpu.reduce((sum, { cpu }) => sum + cpu, 0),
    preempted: workerCpu.reduce((sum, { preempted }) => sum + preempted, 0),
    receiver: receiverCpu,
    ...(postgresCpu !== undefined ? { postgres: postgresCpu } : {}),
    ...(machine !== undefined && machineAfter !== undefined ? { machine: machineAfter - machine } : {}),
  };
  return { deliveries, seconds, perSecond: (deliveries - 1) / seconds, cpu, wall };
}

/** A contender on the in-memory store, in `parts` processes (bare only), each sending its share. */
async function oneProcess(mode: 'bare' | 'engine', parts = 1): Promise<Measured> {
  log(
    `${mode}${parts > 1 ? ` in ${parts} processes` : ''}: filling ${count.toLocaleString('en-US')} events in memory…`,
  );
  const workers = Array.from({ length: parts }, (_, part) =>
    child('./one-process.ts', {
      MODE: mode,
      RECEIVER_URL: receiverUrl,
      COUNT: String(count),
      CONCURRENCY: String(concurrency),
      PART: String(part),
      PARTS: String(parts),
    }),
  );
  const result = await timed(workers, count + 1);
  await Promise.all(
    workers.map((worker) => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.send({ stop: true });
      return exited;
    }),
  );
  log(
    `  ${Math.round(result.perSecond).toLocaleString('en-US')} deliveries/s; CPU ${JSON.stringify(result.cpu)} in ${result.wall.toFixed(2)} s`,
  );
  return result;
}

async function onPostgres(processes: number, webhooks: number): Promise<Measured> {
  const schema = `bench_delivery_${process.pid}_${processes}_${webhooks}`;
  const driver = await pgDriver({ connectionString: url, max: 8 });
  const store = await createPostgresStore({ driver, schema });
  try {
    log(`PostgreSQL, ${processes} worker process(es), ${webhooks} webhook(s): filling the outbox…`);
    const filled = await fillOutbox(store, {
      keyring,
      receiverUrl,
      count,
      webhooks,
      onProgress: (done) => {
        if (done % 5_000 === 0) log(`  ${done.toLocaleString('en-US')}`);
      },
    });
    const workers = Array.from({ length: processes }, () =>
      child('./pg-worker.ts', { DATABASE_URL: url, SCHEMA: schema, CONCURRENCY: String(concurrency) }),
    );
    const result = await timed(workers, filled.owed);
    const stopped = await Promise.all(
      workers.map((worker) => {
        const counted = next<{ sql: SqlCounters }>(worker, 'counts');
        worker.send({ stop: true });
        return counted;
      }),
    );
    const sql = sumCounters(stopped.map((s) => s.sql));
    log(
      `  ${Math.round(result.perSecond).toLocaleString('en-US')} deliveries/s; ${sql.statements.toLocaleString('en-US')} statements, ${sql.transactions.toLocaleString('en-US')} transactions (${sql.retries} retried); CPU ${JSON.stringify(result.cpu)} in ${result.wall.toFixed(2)} s`,
    );
    return { ...result, sql };
  } finally {
    await driver.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await store.close();
  }
}

const results = new Map<string, Measured>();
/** The sending process's CPU µs per delivery over all rounds of a one-process contender. */
const cpuPerDelivery = new Map<string, number>();
const microsPerDelivery = (runs: Measured[]) =>
  (runs.reduce((sum, r) => sum + r.cpu.workers, 0) * 1e6) / runs.reduce((sum, r) => sum + r.deliveries, 0);
/** The run with the median rate. */
const median = (runs: Measured[]) => [...runs].sort((a, b) => a.perSecond - b.perSecond)[runs.length >> 1]!;
try {
  // The one-process contenders take turns, five rounds, and each keeps its median run: short runs
  // on a small machine are noisy, and taking turns spreads any drift over both.
  const runs = new Map<string, Measured[]>();
  const contenders = [
    { key: 'bare', measure: () => oneProcess('bare') },
    { key: 'bare2', measure: () => oneProcess('bare', 2) },
    { key: 'engine', measure: () => oneProcess('engine') },
  ].filter(({ key }) => key === 'bare' || !only || only.has(key));
  for (let round = 0; round < ROUNDS; round++) {
    for (const { key, measure } of contenders) runs.set(key, [...(runs.get(key) ?? []), await measure()]);
  }
  for (const [key, measured] of runs) {
    results.set(key, median(measured));
    cpuPerDelivery.set(key, microsPerDelivery(measured));
  }
  // The PostgreSQL runs take turns too, three rounds, each keeping its median: one run of a
  // worker process cold from its start varies by a tenth from run to run on this machine.
  const postgresRuns = new Map<string, Measured[]>();
  for (let round = 0; round < POSTGRES_ROUNDS; round++) {
    for (const { processes, webhooks, key } of !only || only.has('postgres') ? POSTGRES_RUNS : []) {
      postgresRuns.set(key, [...(postgresRuns.get(key) ?? []), await onPostgres(processes, webhooks)]);
    }
  }
  for (const [key, runs] of postgresRuns) results.set(key, median(runs));
} finally {
  receiver.kill();
  rmSync(dir, { recursive: true, force: true });
}

publishResults(
  deliveryReport({
    at,
    count,
    concurrency,
    receiverMs,
    rounds: ROUNDS,
    results,
    cpuPerDelivery,
    postgresRuns: POSTGRES_RUNS,
  }),
  {
    id: receiverMs > 0 ? 'delivery-slow-receiver' : 'delivery',
    heading:
      receiverMs > 0 ? 'Audit webhook delivery to a receiver that takes its time' : 'Audit webhook delivery',
  },
  args.write,
);
