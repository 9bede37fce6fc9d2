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
 *                             [--profile dir] [--runs 1x8,2x8] [--postgres-rounds 3]
 *
 * `--only` picks contenders (`bare` always runs: the others are measured against it): `engine`,
 * `postgres`. `--runs` picks PostgreSQL runs by processes x webhooks; `--postgres-rounds` how many
 * times each runs (its median is kept). `--profile dir` runs the contenders under `node --cpu-prof`
 * and leaves their profiles in `dir` (read them with bench/push/profile-summary.ts).
 *
 * Goal: the engine in one process at least 0.5x of the bare loop. DATABASE_URL (default the local
 * server) names the database; the run uses schemas of its own and drops them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateKeyringKey } from '@latchkey/core';
import { createPostgresStore, pgDriver } from '@latchkey/store-postgres';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { type SqlCounters, sumCounters } from './counting-driver.js';
import { type CpuSplit, machineBusySeconds, postgresCpuSeconds, postgresTicks, quietMachine } from './cpu.js';
import { fillOutbox } from './fill.js';

const { values: args } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '16' },
    write: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'string' },
    runs: { type: 'string' },
    'postgres-rounds': { type: 'string', default: '3' },
  },
});
const only = args.only ? new Set(args.only.split(',')) : null;
const profileDir = args.profile ? resolve(args.profile) : undefined;
const count = Number(args.deliveries);
const concurrency = Number(args.concurrency);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const GOAL = 0.5;
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

const receiver = child('./receiver.ts', { KEY_FILE: certificate.keyFile, CERT_FILE: certificate.certFile });
const { port } = await next<{ port: number }>(receiver, 'port');
const receiverUrl = `https://localhost:${port}/hook`;

interface Measured {
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** PostgreSQL: what the workers' drivers were sent, summed over the workers. */
  sql?: SqlCounters;
  /** CPU seconds from the start signal to the last arrival, by where they went, and that time. */
  cpu: CpuSplit;
  wall: number;
}

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

async function oneProcess(mode: 'bare' | 'engine'): Promise<Measured> {
  log(`${mode}: filling ${count.toLocaleString('en-US')} events in memory…`);
  const worker = child('./one-process.ts', {
    MODE: mode,
    RECEIVER_URL: receiverUrl,
    COUNT: String(count),
    CONCURRENCY: String(concurrency),
  });
  const result = await timed([worker], count + 1);
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.send({ stop: true });
  await exited;
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
  const bareRuns: Measured[] = [];
  const engineRuns: Measured[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(await oneProcess('bare'));
    if (!only || only.has('engine')) engineRuns.push(await oneProcess('engine'));
  }
  results.set('bare', median(bareRuns));
  if (engineRuns.length > 0) results.set('engine', median(engineRuns));
  cpuPerDelivery.set('bare', microsPerDelivery(bareRuns));
  if (engineRuns.length > 0) cpuPerDelivery.set('engine', microsPerDelivery(engineRuns));
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

const bare = results.get('bare')!;
/** `n` per delivery of `r`, or `–` without counters. */
const per = (r: Measured, n: (sql: SqlCounters) => number) =>
  r.sql ? (n(r.sql) / r.deliveries).toFixed(2) : '–';
const row = (name: string, r: Measured | undefined) =>
  r === undefined
    ? `| ${name} | – | – | – | – | – | – |`
    : `| ${name} | ${r.deliveries.toLocaleString('en-US')} | ${r.seconds.toFixed(2)} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${(r.perSecond / bare.perSecond).toFixed(2)}x | ${per(r, (sql) => sql.statements)} | ${per(r, (sql) => sql.transactions)} |`;
/** The PostgreSQL goals, each with the figure measured and whether it is met. */
function postgresGoals(): string[] {
  const ratio = (key: string) => (results.get(key)?.perSecond ?? 0) / bare.perSecond;
  const pg1 = results.get('pg1x8');
  const pg2 = results.get('pg2x8');
  if (!pg1 || !pg2 || !results.has('pg1x1')) return [];
  const verdict = (met: boolean) => (met ? 'meets' : 'MISSES');
  const scaling = pg2.perSecond / pg1.perSecond;
  const transactions = Math.max(
    ...[1, 8].map((w) => {
      const r = results.get(`pg1x${w}`)!;
      return (r.sql?.transactions ?? 0) / r.deliveries;
    }),
  );
  return [
    `- PostgreSQL, 1 worker, 1 webhook: ${ratio('pg1x1').toFixed(2)}x of the bare loop: ${verdict(ratio('pg1x1') >= 0.25)} the 0.25x goal.`,
    `- PostgreSQL, 1 worker, 8 webhooks: ${ratio('pg1x8').toFixed(2)}x of the bare loop: ${verdict(ratio('pg1x8') >= 0.35)} the 0.35x goal.`,
    `- PostgreSQL, 2 workers on 8 webhooks: ${scaling.toFixed(2)}x of 1 worker: ${verdict(scaling >= 1)} the 1.0x goal.`,
    `- PostgreSQL, 1 worker: at most ${transactions.toFixed(2)} transactions per delivery: ${verdict(transactions <= 0.1)} the 0.1 goal.`,
  ];
}
/** A row of the CPU table: each share of the run's CPU in cores (CPU seconds per second of the run). */
const cores = (seconds: number | undefined, r: Measured) =>
  seconds === undefined ? '–' : (seconds / r.wall).toFixed(2);
const cpuRow = (name: string, r: Measured | undefined) => {
  if (r === undefined) return `| ${name} | – | – | – | – | – | – | – |`;
  const { workers, receiver, postgres, machine } = r.cpu;
  const other =
    machine === undefined || postgres === undefined ? undefined : machine - workers - receiver - postgres;
  return `| ${name} | ${r.wall.toFixed(2)} | ${cores(workers, r)} | ${cores(postgres, r)} | ${cores(receiver, r)} | ${cores(other === undefined ? undefined : Math.max(0, other), r)} | ${cores(machine, r)} | ${((r.cpu.preempted / r.deliveries) * 1000).toFixed(0)} |`;
};
const engineRatio = (results.get('engine')?.perSecond ?? 0) / bare.perSecond;
/** The one-process contenders' CPU per delivery, all rounds: less disturbed by other work than rates. */
function cpuLine(): string[] {
  const [bareCpu, engineCpu] = [cpuPerDelivery.get('bare'), cpuPerDelivery.get('engine')];
  if (bareCpu === undefined || engineCpu === undefined) return [];
  return [
    `- CPU per delivery in the sending process over all ${ROUNDS} rounds: the bare loop ${bareCpu.toFixed(0)} µs, the engine ${engineCpu.toFixed(0)} µs; per CPU second the engine delivers ${(bareCpu / engineCpu).toFixed(2)}x what the bare loop does.`,
  ];
}
const block = [
  `Date: ${at.slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL and the receiver on the same machine.`,
  '',
  `\`pnpm bench:delivery\`: ${count.toLocaleString('en-US')} deliveries queued (events plus the webhooks' own creation events), for one audit webhook or spread over eight of one organization, then delivered over HTTPS with keep-alive to a loopback receiver in a process of its own that answers 204; ${concurrency} requests in flight per process. Rates run from the first arrival to the last; the one-process contenders take turns for five rounds and each keeps its median, the PostgreSQL ones for three rounds (each run on an outbox filled afresh, by worker processes started afresh) and each keeps its median; each run starts once the machine has been nearly idle (under half a core busy) for a quarter of a second, or after 10 s. "bare undici loop" posts the same event bodies, signed beforehand, with \`undici.request\` and nothing else, over as many connections as the engine keeps per receiver (8): the raw limit. The engine (its defaults: batches of 64 claimed, another as soon as fewer than 64 wait) claims, signs each attempt afresh, sends through the SSRF guard (address vetted, connection pinned), and records the outcomes in batches: a flush, one transaction, when the batch is complete, 64 outcomes wait or 10 ms have passed (on PostgreSQL two statements in two round trips: one locking the webhooks and the leases, sent with BEGIN, one writing the attempt rows, minute and hour rollups, running totals, webhook state and delivery states, sent with COMMIT; claims and flushes run on generic plans, set by one more statement sent with their first). The \`tree\` fields of a claimed batch are read in one statement.`,
  '',
  "Statements and transactions per delivery (PostgreSQL only) are counted in each worker's database driver, from the start signal to its stop, summed over the workers and divided by the deliveries. Statements are the queries the store sends, on the pool or inside a transaction; the BEGIN and COMMIT the driver puts around each transaction (and its look at the transaction id with BEGIN) are not counted, nor are LISTEN and its notifications. Transactions count each attempt, a retried one again. Both include the engine's start and the claims that find nothing once the outbox is empty.",
  '',
  '| contender | deliveries | seconds | deliveries/s | of bare | statements per delivery | transactions per delivery |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  row('bare undici loop', bare),
  row('engine, one process, in-memory store', results.get('engine')),
  ...POSTGRES_RUNS.map(({ processes, webhooks, key }) =>
    row(
      `engine on PostgreSQL, ${processes} worker process${processes > 1 ? 'es' : ''}, ${webhooks} webhook${webhooks > 1 ? 's' : ''}`,
      results.get(key),
    ),
  ),
  '',
  `- The engine in one process reaches ${engineRatio.toFixed(2)}x of the bare loop: ${engineRatio >= GOAL ? 'meets' : 'MISSES'} the ${GOAL}x goal.`,
  ...postgresGoals(),
  ...cpuLine(),
  '',
  `Where the CPU went in each of those runs, in cores (CPU seconds per second, from the start signal to the last arrival; the machine has ${availableParallelism()}): the sending process(es) as each measures itself, PostgreSQL's server processes and the machine as a whole from /proc, "other" the machine's rest (the bench's own parent process, anything else running); preemptions are the times a sending process was taken off a core while it could still run (its \`nonvoluntary_ctxt_switches\`), that is, waited for a core.`,
  '',
  '| contender | seconds | sending process(es) | PostgreSQL | receiver | other | machine busy | sender preemptions per 1,000 deliveries |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  cpuRow('bare undici loop', bare),
  cpuRow('engine, one process, in-memory store', results.get('engine')),
  ...POSTGRES_RUNS.map(({ processes, webhooks, key }) =>
    cpuRow(
      `engine on PostgreSQL, ${processes} worker${processes > 1 ? 's' : ''}, ${webhooks} webhook${webhooks > 1 ? 's' : ''}`,
      results.get(key),
    ),
  ),
].join('\n');
publishResults(block, { id: 'delivery', heading: 'Audit webhook delivery' }, args.write);
