/**
 * `pnpm bench:export`: exports a million-event activity log through `core.handle` as NDJSON, from
 * real PostgreSQL and from embedded PGlite, against writing the same lines raw to a file, in one
 * run; each in a process of its own, which also reports its peak RSS.
 *
 *   tsx bench/export/run.ts [--events 1000000] [--write]
 *
 * Goals: lines/s at least 0.5x of the raw write; peak RSS under 150 MB. DATABASE_URL (default the
 * local server) names the database; the run uses a schema and temporary files of its own and
 * removes them at the end. `--write` records the table in bench/RESULTS.md.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { seedEvents } from './seed.js';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '1000000' }, write: { type: 'boolean', default: false } },
});
const count = Number(args.events);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'latchkey-bench-export-'));
const schema = `bench_export_${process.pid}`;
const rawFile = join(dir, 'raw.ndjson');
const GOALS = { ofRaw: 0.5, rssMb: 150 };

const log = (message: string) => process.stderr.write(`${message}\n`);
const at = new Date().toISOString();

interface Measured {
  lines: number;
  seconds: number;
  linesPerSecond: number;
  /** Peak RSS while exporting. */
  maxRssMb: number;
  /** RSS when the export began. */
  baseRssMb: number;
}

async function measure(mode: string, env: Record<string, string>): Promise<Measured> {
  const child = fileURLToPath(new URL('./child.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [child], {
    env: { ...process.env, MODE: mode, OUT: join(dir, `${mode}.out`), ...env },
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured;
  log(
    `  ${mode.padEnd(9)} ${Math.round(result.linesPerSecond).toLocaleString('en-US').padStart(10)} lines/s, ${result.seconds.toFixed(1)} s, peak RSS ${result.maxRssMb.toFixed(0)} MB`,
  );
  rmSync(join(dir, `${mode}.out`), { force: true });
  return result;
}

// The contenders run the built packages, as an application would.
log('building @latchkey/store-postgres and the packages it needs…');
await promisify(execFile)(
  'npx',
  ['--yes', 'pnpm@10.34.8', '--filter', '@latchkey/store-postgres...', 'run', 'build'],
  { maxBuffer: 16 << 20 },
);
const pgSeed = await pgDriver(url);
const liteDriver = await pgliteDriver(join(dir, 'pglite'));
const pg = await createPostgresStore({ driver: pgSeed, schema });
const lite = await createPostgresStore({ driver: liteDriver });
const results = new Map<string, Measured>();
try {
  const organization = { id: 'org_benchexport0000000000000', slug: 'acme', name: 'Acme', created_at: at };
  await pg.organizations.create(organization);
  await lite.organizations.create(organization);
  log(`seeding ${count.toLocaleString('en-US')} events into PostgreSQL and PGlite…`);
  await seedEvents(
    [
      { store: pg, db: pgSeed, schema },
      { store: lite, db: liteDriver, schema: 'latchkey' },
    ],
    organization.id,
    count,
    rawFile,
    (done) => {
      if (done % 100_000 === 0 || done === count) log(`  ${done.toLocaleString('en-US')}`);
    },
  );
  await lite.close();
  log(`raw file: ${(statSync(rawFile).size / 1e6).toFixed(0)} MB. Measuring, each in its own process:`);
  // Raw first and last (the better one counts), so a machine that slows down does not flatter us.
  results.set('raw', await measure('raw', { RAW_FILE: rawFile }));
  results.set('floor', await measure('floor', { DATABASE_URL: url, SCHEMA: schema }));
  results.set('postgres', await measure('postgres', { DATABASE_URL: url, SCHEMA: schema }));
  results.set('pglite', await measure('pglite', { PGLITE_DIR: join(dir, 'pglite') }));
  results.set(
    'pglite-small',
    await measure('pglite', { PGLITE_DIR: join(dir, 'pglite'), SHARED_BUFFERS: '16MB' }),
  );
  const rawAgain = await measure('raw', { RAW_FILE: rawFile });
  if (rawAgain.linesPerSecond > results.get('raw')!.linesPerSecond) results.set('raw', rawAgain);
} finally {
  await pgSeed.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pg.close();
  rmSync(dir, { recursive: true, force: true });
}

const raw = results.get('raw')!;
const row = (name: string, r: Measured) => {
  const ratio = r.linesPerSecond / raw.linesPerSecond;
  return `| ${name} | ${Math.round(r.linesPerSecond).toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${ratio.toFixed(2)}x | ${r.baseRssMb.toFixed(0)} → ${r.maxRssMb.toFixed(0)} |`;
};
const notes = ['postgres', 'pglite', 'pglite-small'].map((name) => {
  const r = results.get(name)!;
  const ratio = r.linesPerSecond / raw.linesPerSecond;
  return `- ${name}: ${ratio.toFixed(2)}x of raw ${ratio >= GOALS.ofRaw ? 'meets' : 'MISSES'} the ${GOALS.ofRaw}x goal; peak RSS ${r.maxRssMb.toFixed(0)} MB ${r.maxRssMb < GOALS.rssMb ? 'meets' : 'MISSES'} the ${GOALS.rssMb} MB goal.`;
});
const floor = results.get('floor')!;
notes.push(
  `- export from PostgreSQL against the database's own COPY of the same rows: ${(results.get('postgres')!.linesPerSecond / floor.linesPerSecond).toFixed(2)}x (the database, not Latchkey, sets the pace: its COPY alone reaches ${(floor.linesPerSecond / raw.linesPerSecond).toFixed(2)}x of the raw file copy).`,
);
const block = [
  `Date: ${at.slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:export\`: ${count.toLocaleString('en-US')} events of one organization (${(raw.lines / 1e6).toFixed(2)}M lines, as the store seals them) exported as NDJSON through \`core.handle\` (\`GET …/activity/export\`, backpressure honoured) into a file, each contender in a process of its own (plain Node on the built packages) that reports its peak RSS. From PostgreSQL the export is one \`COPY (SELECT …) TO STDOUT\` in binary format, its bytes passed on undecoded as the reader pulls them; from PGlite, which cannot stream a result, keyset pages of 5,000 lines each read as one joined text, the next asked for while one is written. "raw" copies the same lines from a file into a file: the I/O floor. "PostgreSQL COPY" is the database's own floor: the same rows by the same binary \`COPY … TO STDOUT\` written straight to the file (framing included), nothing decoded and no Latchkey code. PGlite runs with its default 128 MB of shared buffers, and again with 16 MB (\`pgliteDriver({ pglite: { postgresqlconf: ['shared_buffers = 16MB'] } })\`).`,
  '',
  '| contender | lines/s | seconds | of raw | RSS MB at start → peak |',
  '| --- | ---: | ---: | ---: | ---: |',
  row('raw file write', raw),
  row('PostgreSQL COPY to the file, undecoded', results.get('floor')!),
  row('export from PostgreSQL', results.get('postgres')!),
  row('export from PGlite', results.get('pglite')!),
  row('export from PGlite, shared_buffers 16MB', results.get('pglite-small')!),
  '',
  ...notes,
].join('\n');
publishResults(block, { id: 'export', heading: 'Activity export' }, args.write);
