/**
 * `pnpm bench:metrics`: the audit webhook metrics query (`GET …/audit-webhooks/metrics?window=30d`
 * through `core.handle`) on real PostgreSQL at 1,000, 100,000, 1,000,000 and 10,000,000 recorded
 * delivery attempts, and on embedded PGlite up to 1,000,000 (its seeding is slower; `--pglite-max 0`
 * leaves it out).
 *
 *   tsx bench/metrics/run.ts [--max 10000000] [--pglite-max 1000000] [--reps 30] [--webhooks 5] [--write]
 *
 * Goal: the 30d query at 10M attempts within 2x of its time at 1,000. The same tables grow from one
 * size to the next (seeded in bulk, see seed.ts), with VACUUM ANALYZE after each growth; the seeding
 * is checked against the recording path at the first size and against a brute-force count of the
 * attempts at every size (verify.ts) before the query is timed. DATABASE_URL (default the local
 * server) names the database; the run uses schemas of its own (bench_metrics…), dropped at the end.
 * `--write` records the tables in bench/RESULTS.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore, generateKeyringKey } from '@latchkey/core';
import { type MetricsReport, type MetricsWindow, windowCover, windowStart } from '@latchkey/core/store';
import { createPostgresStore, type PostgresStore, type SqlQueryable } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';
import { coreCaller } from '../core-call.js';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { growAttempts, prepareHelper } from './seed.js';
import { compareWithAttempts, compareWithRecorded, coverRows } from './verify.js';

const { values: args } = parseArgs({
  options: {
    max: { type: 'string', default: '10000000' },
    reps: { type: 'string', default: '30' },
    webhooks: { type: 'string', default: '5' },
    'pglite-max': { type: 'string', default: '1000000' },
    write: { type: 'boolean', default: false },
  },
});
const SIZES = [1_000, 100_000, 1_000_000, 10_000_000];
const reps = Number(args.reps);
const webhookCount = Number(args.webhooks);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_metrics';
const REFERENCE = 'bench_metrics_recorded';
const HELPER = 'bench_metrics_seed';
const TOKEN = 'lk_bench_metrics_token_0000000000000000000000';
const HOOKS = '/api/v2/organizations/acme/audit-webhooks';
const WARM_UP = 3;
const GOAL = 2;
/** The clock of the run, fixed, so every repetition reads the same window. */
const NOW = Date.now();

const log = (message: string) => process.stderr.write(`${message}\n`);
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** A database to measure on: the store, a connection for seeding, and a store for the reference. */
interface Engine {
  name: string;
  /** No statement timeout: seeding runs long statements. */
  admin: SqlQueryable;
  store: PostgresStore;
  reference(): Promise<{ store: PostgresStore; done(): Promise<void> }>;
  close(): Promise<void>;
}

/** One measured size (`histogramKb`: the JSON text of the histograms of the rows read). */
type Measured = Record<
  | 'attempts'
  | 'rowsRead'
  | 'rowsPresent'
  | 'histogramKb'
  | 'attemptRows'
  | 'medianMs'
  | 'p95Ms'
  | 'rollupsMedianMs'
  | 'firstMs'
  | 'seedSeconds',
  number
>;

const drop = async (db: SqlQueryable, ...schemas: string[]) => {
  for (const schema of schemas) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
};

async function openPostgres(): Promise<Engine> {
  // Seeding only: one connection, so the session's larger work_mem applies to every statement.
  const admin = await pgDriver({
    connectionString: url,
    max: 1,
    statementTimeoutMs: 0,
    pool: { options: '-c work_mem=256MB' },
  });
  await drop(admin, SCHEMA, REFERENCE, HELPER);
  // The store as an application opens it, with room for a slow answer rather than a 503 mid-run.
  const driver = await pgDriver({ connectionString: url, statementTimeoutMs: 60_000 });
  const store = await createPostgresStore({ driver, schema: SCHEMA });
  return {
    name: 'PostgreSQL',
    admin,
    store,
    async reference() {
      const ref = await createPostgresStore({ driver: await pgDriver(url), schema: REFERENCE });
      return { store: ref, done: () => ref.close().then(() => drop(admin, REFERENCE)) };
    },
    async close() {
      await store.close();
      await drop(admin, SCHEMA, REFERENCE, HELPER);
      await admin.close();
    },
  };
}

async function openPglite(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-bench-metrics-'));
  const driver = await pgliteDriver({ dataDir: join(dir, 'data'), statementTimeoutMs: 0 });
  const store = await createPostgresStore({ driver, schema: SCHEMA });
  return {
    name: 'PGlite',
    admin: driver,
    store,
    async reference() {
      // One embedded database: the reference shares its driver, so only its schema is dropped.
      const ref = await createPostgresStore({ driver, schema: REFERENCE });
      return { store: ref, done: () => drop(driver, REFERENCE) };
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function stats(sorted: number[]) {
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, p95: sorted[Math.ceil(0.95 * sorted.length) - 1]! };
}

/** Times each function `reps` times, taking turns (so a machine that slows down slows all alike). */
async function timed(...fns: (() => Promise<unknown>)[]): Promise<number[][]> {
  for (let i = 0; i < WARM_UP; i++) for (const fn of fns) await fn();
  const ms = fns.map((): number[] => []);
  for (let i = 0; i < reps; i++) {
    for (const [k, fn] of fns.entries()) {
      const started = performance.now();
      await fn();
      ms[k]!.push(performance.now() - started);
    }
  }
  return ms.map((m) => m.sort((a, b) => a - b));
}

async function measureEngine(engine: Engine, sizes: number[], notes: string[]): Promise<Measured[]> {
  const core = createCore({
    store: engine.store,
    keyring: { current: 'k1', keys: { k1: generateKeyringKey() } },
    webhooks: { resolve: async () => [{ address: '93.184.215.14', family: 4 as const }] },
    now: () => NOW,
  });
  const organization = await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const call = coreCaller(core, TOKEN);
  const webhookIds: string[] = [];
  for (let k = 0; k < webhookCount; k++) {
    const created = await call('POST', HOOKS, { name: `hook-${k}`, url: `https://hooks.example.com/${k}` });
    webhookIds.push((JSON.parse(created.body as string) as { id: string }).id);
  }
  const report = async (window: MetricsWindow) =>
    JSON.parse((await call('GET', `${HOOKS}/metrics?window=${window}`)).body as string) as MetricsReport;
  const target = { db: engine.admin, schema: SCHEMA, helper: HELPER };
  const plan = { organizationId: organization.id, webhookIds, fromMs: windowStart(NOW, '30d'), toMs: NOW };
  await prepareHelper(target);
  const cover = windowCover(NOW, '30d');
  const iso = (range: { from: number; to: number }) => ({
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
  });
  const boundaries = [iso(cover.totals).from, iso(cover.totals).to];
  // The store's part of the query alone: the current minute and the running totals, read and merged.
  const storeRead = () =>
    Promise.all([
      engine.store.deliveries.minuteRollups(organization.id, cover.minutes.map(iso)),
      engine.store.deliveries.totalsBefore(organization.id, boundaries),
    ]);

  const results: Measured[] = [];
  let seeded = 0;
  for (const size of sizes) {
    log(`${engine.name}: growing the attempt log from ${int(seeded)} to ${int(size)} attempts`);
    const seedStarted = performance.now();
    // The first size grows in two steps, so the check against record() covers merging into rollups too.
    if (seeded === 0) {
      await growAttempts(target, plan, { from: 1, to: size / 2, progress: log });
      seeded = size / 2;
    }
    await growAttempts(target, plan, { from: seeded + 1, to: size, progress: log });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    seeded = size;
    if (results.length === 0) {
      log(`  checking the seeding against record(): the ${int(size)} attempts recorded again one by one…`);
      const started = performance.now();
      const reference = await engine.reference();
      try {
        const same = await compareWithRecorded(engine.admin, SCHEMA, reference.store);
        const line = `${engine.name}: at ${int(size)} attempts the seeded tables (grown in two steps, so rollups were merged into as well as created) equal those \`deliveries.record()\` leaves for the same attempts (${int(same.attempts)} attempt rows, ${int(same.rollups)} rollup rows, webhooks' last delivery and error: no difference).`;
        notes.push(`- ${line}`);
        log(`  … identical (${seconds(started)})`);
      } finally {
        await reference.done();
      }
    }
    // The first read after a growth takes the running totals anew (from the hour rollups): once.
    const firstStarted = performance.now();
    await call('GET', `${HOOKS}/metrics?window=30d`);
    const firstMs = performance.now() - firstStarted;
    log(`  first 30d query after the growth (takes the running totals): ${firstMs.toFixed(1)} ms`);
    log('  checking the route against a count over the attempts table (24h, 7d, 30d)…');
    const checkStarted = performance.now();
    const counted = await compareWithAttempts(engine.admin, SCHEMA, organization.id, NOW, report);
    const windows = Object.entries(counted).map(([window, n]) => `${window} ${int(n)}`);
    log(`  … equal: ${windows.join(', ')} (${seconds(checkStarted)})`);
    const rows = await coverRows(engine.admin, SCHEMA, organization.id, NOW);
    log(`  timing: ${WARM_UP} warm-up and ${reps} timed requests, each followed by a rollups() call alone…`);
    const [routeMs, aloneMs] = await timed(() => call('GET', `${HOOKS}/metrics?window=30d`), storeRead);
    const route = stats(routeMs!);
    const alone = stats(aloneMs!);
    const timing = { medianMs: route.median, p95Ms: route.p95, rollupsMedianMs: alone.median, firstMs };
    results.push({ attempts: size, ...rows, ...timing, seedSeconds });
    log(
      `  ${int(size)} attempts: median ${route.median.toFixed(2)} ms, p95 ${route.p95.toFixed(2)} ms, rollups() alone ${alone.median.toFixed(2)} ms; rollup rows ${int(rows.rowsRead)} read of ${int(rows.rowsPresent)}`,
    );
  }
  return results;
}

function table(results: Measured[]): string[] {
  const base = results[0]!.medianMs;
  return [
    '| attempts | rows read (current minute + totals) / rollup rows present | histogram JSON read, KB | attempts table rows | median ms | p95 ms | median vs 1,000 | store read alone, median ms | first query after growth, ms | seeding s |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${int(r.attempts)} | ${int(r.rowsRead)} / ${int(r.rowsPresent)} | ${int(r.histogramKb)} | ${int(r.attemptRows)} | ${r.medianMs.toFixed(2)} | ${r.p95Ms.toFixed(2)} | ${(r.medianMs / base).toFixed(2)}x | ${r.rollupsMedianMs.toFixed(2)} | ${r.firstMs.toFixed(1)} | ${r.seedSeconds.toFixed(0)} |`,
    ),
  ];
}

function verdict(name: string, results: Measured[]): string {
  const last = results.at(-1)!;
  const ratio = last.medianMs / results[0]!.medianMs;
  const largest = SIZES.at(-1)!;
  if (last.attempts < largest)
    return `- ${name}: largest size measured ${int(last.attempts)} (the goal is judged at ${int(largest)}): ${ratio.toFixed(2)}x of the time at ${int(results[0]!.attempts)}.`;
  return `- ${name}: 30d at ${int(last.attempts)} attempts ${ratio.toFixed(2)}x of the time at ${int(results[0]!.attempts)} ${ratio <= GOAL ? 'meets' : 'MISSES'} the ${GOAL}x goal.`;
}

const max = Number(args.max);
const sizes = SIZES.filter((n) => n <= max);
if (sizes.length === 0) throw new Error(`--max must be at least ${SIZES[0]}`);
const pgliteSizes = sizes.filter((n) => n <= Number(args['pglite-max']));
const sections: string[] = [];
const notes: string[] = [];
const verdicts: string[] = [];
const runStarted = performance.now();
const engines: [() => Promise<Engine>, number[]][] = [[openPostgres, sizes]];
if (pgliteSizes.length > 0) engines.push([openPglite, pgliteSizes]);
for (const [open, engineSizes] of engines) {
  const engine = await open();
  try {
    const results = await measureEngine(engine, engineSizes, notes);
    sections.push(`${engine.name}:`, '', ...table(results), '');
    verdicts.push(verdict(engine.name, results));
  } finally {
    await engine.close();
  }
}
log(`whole run: ${seconds(runStarted)}`);

const block = [
  `Date: ${new Date(NOW).toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:metrics\`: \`GET …/audit-webhooks/metrics?window=30d\` through \`core.handle\` (token check, webhook list, the current minute's rollup and two running totals per webhook read and combined, percentiles) for one organization with ${webhookCount} webhooks whose attempts are spread evenly over the last 30 days, ${WARM_UP} warm-up then ${reps} timed requests one after another, each followed by the store's read alone ("store read alone": \`minuteRollups\` and \`totalsBefore\`, without the route around it). "histogram JSON read" is the text of the latency histograms in the rows read, which node-postgres parses. The same tables grow from size to size: attempt rows inserted in bulk by SQL, their minute and hour rollups derived from them by GROUP BY and merged into the rows already there, the webhooks' last delivery and error set, the running totals dropped (the seeding bypasses \`record()\`, which keeps them), then VACUUM ANALYZE; the first query after a growth takes the totals again from the hour rollups, and is shown on its own. Attempts fail (503) about 2 % of the time and take 20–299 ms (85 %), 300–2,999 ms (12 %) or 3,000–9,999 ms (3 %). Before timing, the route's 24h, 7d and 30d figures are checked against a count over the attempts table (counts and latency buckets equal, percentiles within 0.4 %) at every size.`,
  '',
  ...sections,
  ...verdicts,
  ...notes,
].join('\n');
publishResults(block, { id: 'metrics', heading: 'Audit webhook metrics' }, args.write);
