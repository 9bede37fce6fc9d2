/**
 * The report of `bench:delivery`: the rates table with the goals, and the table of where the CPU
 * went, from the medians `run.ts` measured.
 */
import { availableParallelism } from 'node:os';
import { codeVersion, machine } from '../push/report.js';
import type { SqlCounters } from './counting-driver.js';
import type { CpuSplit } from './cpu.js';

export interface Measured {
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** PostgreSQL: what the workers' drivers were sent, summed over the workers. */
  sql?: SqlCounters;
  /** CPU seconds from the start signal to the last arrival, by where they went, and that time. */
  cpu: CpuSplit;
  wall: number;
}

export interface DeliveryReport {
  at: string;
  count: number;
  concurrency: number;
  /** How long the receiver waits before answering each delivery, in milliseconds. */
  receiverMs: number;
  /** Rounds of the one-process contenders. */
  rounds: number;
  /** The median run of each contender: `bare`, `bare2`, `engine`, `pg<processes>x<webhooks>`. */
  results: ReadonlyMap<string, Measured>;
  /** The sending process's CPU µs per delivery over all rounds of a one-process contender. */
  cpuPerDelivery: ReadonlyMap<string, number>;
  postgresRuns: readonly { processes: number; webhooks: number; key: string }[];
}

/** The in-memory engine's goal, against the bare loop. */
const GOAL = 0.5;

const verdict = (met: boolean) => (met ? 'meets' : 'MISSES');

/** The one-process contenders, as both tables name them, with their keys in the results. */
const ONE_PROCESS = [
  ['bare undici loop', 'bare'],
  ['bare undici loop, 2 processes', 'bare2'],
  ['engine, one process, in-memory store', 'engine'],
] as const;

/** The report's Markdown block. */
export function deliveryReport(report: DeliveryReport): string {
  const { results, count, concurrency, receiverMs } = report;
  const bare = results.get('bare')!;
  /** `n` per delivery of `r`, or `–` without counters. */
  const per = (r: Measured, n: (sql: SqlCounters) => number) =>
    r.sql ? (n(r.sql) / r.deliveries).toFixed(2) : '–';
  const row = (name: string, r: Measured | undefined) =>
    r === undefined
      ? `| ${name} | – | – | – | – | – | – |`
      : `| ${name} | ${r.deliveries.toLocaleString('en-US')} | ${r.seconds.toFixed(2)} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${(r.perSecond / bare.perSecond).toFixed(2)}x | ${per(r, (sql) => sql.statements)} | ${per(r, (sql) => sql.transactions)} |`;
  const pgName = (processes: number, webhooks: number, noun: string) =>
    `engine on PostgreSQL, ${processes} ${noun}${processes > 1 ? (noun.endsWith('s') ? 'es' : 's') : ''}, ${webhooks} webhook${webhooks > 1 ? 's' : ''}`;
  /** A table's lines, one per contender: the one-process ones, then each PostgreSQL run. */
  const contenders = (line: (name: string, r: Measured | undefined) => string, noun: string) => [
    ...ONE_PROCESS.map(([name, key]) => line(name, results.get(key))),
    ...report.postgresRuns.map(({ processes, webhooks, key }) =>
      line(pgName(processes, webhooks, noun), results.get(key)),
    ),
  ];
  const engineRatio = (results.get('engine')?.perSecond ?? 0) / bare.perSecond;
  const receiver =
    receiverMs > 0
      ? `a loopback receiver in a process of its own that answers 204 ${receiverMs} ms after reading each body (a receiver doing work of its own: the sending processes wait more than they work)`
      : 'a loopback receiver in a process of its own that answers 204';
  return [
    `Date: ${report.at.slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL and the receiver on the same machine.`,
    '',
    `\`pnpm bench:delivery${receiverMs > 0 ? ` --receiver-ms ${receiverMs}` : ''}\`: ${count.toLocaleString('en-US')} deliveries queued (events plus the webhooks' own creation events), for one audit webhook or spread over eight of one organization, then delivered over HTTPS with keep-alive to ${receiver}; ${concurrency} requests in flight per process. Rates run from the first arrival to the last; the one-process contenders take turns for ${report.rounds} rounds and each keeps its median, the PostgreSQL ones for three rounds (each run on an outbox filled afresh, by worker processes started afresh) and each keeps its median; each run starts once the machine has been nearly idle (under half a core busy) for a quarter of a second, or after 10 s. "bare undici loop" posts the same event bodies, signed beforehand, with \`undici.request\` and nothing else, over as many connections as the engine keeps per receiver (8): the raw limit. "bare undici loop, 2 processes" is two such loops at once, each posting half the bodies with ${concurrency} in flight, as two workers do: the raw limit of a second sending process on this machine, which the two-worker runs are held against. The engine (its defaults: batches of 64 claimed, another as soon as fewer than 64 wait) claims, signs each attempt afresh, sends through the SSRF guard (address vetted, connection pinned), and records the outcomes in batches: a flush, one transaction, when the batch is complete, 64 outcomes wait or 10 ms have passed (on PostgreSQL two statements in two round trips: one locking the webhooks and the leases, sent with BEGIN, one writing the attempt rows, minute and hour rollups, running totals, webhook state and delivery states, sent with COMMIT; claims and flushes run on generic plans, set by one more statement sent with their first). The \`tree\` fields of a claimed batch are read in one statement.`,
    '',
    "Statements and transactions per delivery (PostgreSQL only) are counted in each worker's database driver, from the start signal to its stop, summed over the workers and divided by the deliveries. Statements are the queries the store sends, on the pool or inside a transaction; the BEGIN and COMMIT the driver puts around each transaction (and its look at the transaction id with BEGIN) are not counted, nor are LISTEN and its notifications. Transactions count each attempt, a retried one again. Both include the engine's start and the claims that find nothing once the outbox is empty.",
    '',
    '| contender | deliveries | seconds | deliveries/s | of bare | statements per delivery | transactions per delivery |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...contenders(row, 'worker process'),
    '',
    ...(results.has('engine')
      ? [
          `- The engine in one process reaches ${engineRatio.toFixed(2)}x of the bare loop: ${verdict(engineRatio >= GOAL)} the ${GOAL}x goal.`,
        ]
      : []),
    ...postgresGoals(results),
    ...cpuLine(report),
    '',
    `Where the CPU went in each of those runs, in cores (CPU seconds per second, from the start signal to the last arrival; the machine has ${availableParallelism()}): the sending process(es) as each measures itself, PostgreSQL's server processes and the machine as a whole from /proc, "other" the machine's rest (the bench's own parent process, anything else running); preemptions are the times a sending process was taken off a core while it could still run (its \`nonvoluntary_ctxt_switches\`), that is, waited for a core.`,
    '',
    '| contender | seconds | sending process(es) | PostgreSQL | receiver | other | machine busy | sender preemptions per 1,000 deliveries |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...contenders(cpuRow, 'worker'),
  ].join('\n');
}

/** The PostgreSQL goals, each with the figure measured and whether it is met. */
function postgresGoals(results: ReadonlyMap<string, Measured>): string[] {
  const bare = results.get('bare')!;
  const ratio = (key: string) => (results.get(key)?.perSecond ?? 0) / bare.perSecond;
  const pg1 = results.get('pg1x8');
  const pg2 = results.get('pg2x8');
  if (!pg1 || !pg2) return [];
  const scaling = pg2.perSecond / pg1.perSecond;
  const bare2 = results.get('bare2');
  const rawScaling = bare2
    ? ` (two bare loops reach ${(bare2.perSecond / bare.perSecond).toFixed(2)}x of one: the machine's own limit for a second sending process)`
    : '';
  const scalingLine = `- PostgreSQL, 2 workers on 8 webhooks: ${scaling.toFixed(2)}x of 1 worker: ${verdict(scaling >= 1)} the 1.0x goal${rawScaling}.`;
  if (!results.has('pg1x1')) return [scalingLine];
  const transactions = Math.max(
    ...[1, 8].map((w) => {
      const r = results.get(`pg1x${w}`)!;
      return (r.sql?.transactions ?? 0) / r.deliveries;
    }),
  );
  return [
    `- PostgreSQL, 1 worker, 1 webhook: ${ratio('pg1x1').toFixed(2)}x of the bare loop: ${verdict(ratio('pg1x1') >= 0.25)} the 0.25x goal.`,
    `- PostgreSQL, 1 worker, 8 webhooks: ${ratio('pg1x8').toFixed(2)}x of the bare loop: ${verdict(ratio('pg1x8') >= 0.35)} the 0.35x goal.`,
    scalingLine,
    `- PostgreSQL, 1 worker: at most ${transactions.toFixed(2)} transactions per delivery: ${verdict(transactions <= 0.1)} the 0.1 goal.`,
  ];
}

/** A row of the CPU table: each share of the run's CPU in cores (CPU seconds per second of the run). */
function cpuRow(name: string, r: Measured | undefined): string {
  if (r === undefined) return `| ${name} | – | – | – | – | – | – | – |`;
  const cores = (seconds: number | undefined) =>
    seconds === undefined ? '–' : (seconds / r.wall).toFixed(2);
  const { workers, receiver, postgres, machine } = r.cpu;
  const other =
    machine === undefined || postgres === undefined ? undefined : machine - workers - receiver - postgres;
  return `| ${name} | ${r.wall.toFixed(2)} | ${cores(workers)} | ${cores(postgres)} | ${cores(receiver)} | ${cores(other === undefined ? undefined : Math.max(0, other))} | ${cores(machine)} | ${((r.cpu.preempted / r.deliveries) * 1000).toFixed(0)} |`;
}

/** The one-process contenders' CPU per delivery, all rounds: less disturbed by other work than rates. */
function cpuLine({ cpuPerDelivery, rounds }: DeliveryReport): string[] {
  const [bareCpu, bare2Cpu, engineCpu] = ['bare', 'bare2', 'engine'].map((key) => cpuPerDelivery.get(key));
  if (bareCpu === undefined || engineCpu === undefined) return [];
  const two = bare2Cpu === undefined ? '' : ` (two bare loops at once: ${bare2Cpu.toFixed(0)} µs)`;
  return [
    `- CPU per delivery in the sending process over all ${rounds} rounds: the bare loop ${bareCpu.toFixed(0)} µs${two}, the engine ${engineCpu.toFixed(0)} µs; per CPU second the engine delivers ${(bareCpu / engineCpu).toFixed(2)}x what the bare loop does.`,
  ];
}
